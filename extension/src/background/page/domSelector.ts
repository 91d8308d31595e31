/**
 * Page side: CSS selectors whose descendant (` `) and child (`>`) combinators cross open shadow
 * boundaries, as Playwright's css engine does: `#host button` matches a button inside #host's
 * shadow root. The selector is split at its top-level commas and combinators; each compound is
 * matched natively (`Element.matches`) and the combinators are followed through the composed
 * tree (a shadow root's parent is its host). Sibling combinators stay inside one tree, as
 * siblings do. Runs inside the page (see domRoles.ts for why it is a factory).
 */

export type Combinator = ' ' | '>' | '+' | '~';

/** One comma-separated part: compounds left to right, and the combinator before each but the first. */
export interface SelectorChain {
  compounds: string[];
  combinators: Combinator[];
}

export interface ShadowSelector {
  parse: (selector: string) => SelectorChain[];
  /** True when the element matches one of the chains, combinators followed across shadow roots. */
  matches: (el: Element, chains: readonly SelectorChain[]) => boolean;
}

export function makeShadowSelector(): ShadowSelector {
  const parse = (selector: string): SelectorChain[] => {
    const chains: SelectorChain[] = [];
    let chain: SelectorChain = { compounds: [], combinators: [] };
    let compound = '';
    let pending: Combinator | undefined;
    let depth = 0;
    let quote: string | undefined;
    const flush = (): void => {
      if (compound === '') return;
      if (chain.compounds.length > 0) chain.combinators.push(pending ?? ' ');
      chain.compounds.push(compound);
      compound = '';
      pending = undefined;
    };
    for (let i = 0; i < selector.length; i++) {
      const c = selector.charAt(i);
      if (c === '\\') {
        compound += c + selector.charAt(++i);
      } else if (quote !== undefined) {
        compound += c;
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") {
        quote = c;
        compound += c;
      } else if (c === '(' || c === '[') {
        depth++;
        compound += c;
      } else if (c === ')' || c === ']') {
        depth--;
        compound += c;
      } else if (depth > 0) {
        compound += c;
      } else if (c === ',') {
        flush();
        chains.push(chain);
        chain = { compounds: [], combinators: [] };
      } else if (c === '>' || c === '+' || c === '~') {
        flush();
        pending = c;
      } else if (/\s/.test(c)) {
        flush();
        if (pending === undefined && chain.compounds.length > 0) pending = ' ';
      } else {
        compound += c;
      }
    }
    flush();
    chains.push(chain);
    return chains;
  };

  /** The parent in the composed tree: a shadow root's children have its host. */
  const composedParent = (el: Element): Element | null => {
    if (el.parentElement !== null) return el.parentElement;
    const parent = el.parentNode;
    return parent !== null && parent.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in parent
      ? (parent as ShadowRoot).host
      : null;
  };

  const matchesAt = (el: Element, chain: SelectorChain, k: number): boolean => {
    // A descendant of each step, tried from the nearest ancestor out (backtracking on a miss).
    const compound = chain.compounds[k];
    if (compound === undefined || !el.matches(compound)) return false;
    if (k === 0) return true;
    const combinator = chain.combinators[k - 1];
    if (combinator === '>') {
      const parent = composedParent(el);
      return parent !== null && matchesAt(parent, chain, k - 1);
    }
    if (combinator === '+') {
      const sibling = el.previousElementSibling;
      return sibling !== null && matchesAt(sibling, chain, k - 1);
    }
    if (combinator === '~') {
      for (let s = el.previousElementSibling; s !== null; s = s.previousElementSibling)
        if (matchesAt(s, chain, k - 1)) return true;
      return false;
    }
    for (let a = composedParent(el); a !== null; a = composedParent(a))
      if (matchesAt(a, chain, k - 1)) return true;
    return false;
  };

  const matches = (el: Element, chains: readonly SelectorChain[]): boolean =>
    chains.some((chain) => matchesAt(el, chain, chain.compounds.length - 1));

  return { parse, matches };
}
