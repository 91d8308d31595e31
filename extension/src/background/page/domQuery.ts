/**
 * Page side: finding elements for the element tools. CSS selectors match inside open shadow
 * roots too, and their descendant and child combinators cross shadow boundaries (domSelector.ts);
 * a role+name locator matches the role and name the outline shows. Runs inside the page (see
 * domRoles.ts for why it is a factory).
 */
import type { DomNames } from './domNames';
import type { DomRoles } from './domRoles';
import type { ShadowSelector } from './domSelector';
import type { ElementIds } from './domWalk';
import type { ElementCheck, QueryAnswer, WireMatch } from './wire';

export interface DomQuery {
  bySelector(root: Document, selector: string): QueryAnswer;
  byRole(root: Document, role: string, name: string | undefined): QueryAnswer;
  /** The innermost visible elements whose text holds `text` (any case, spaces squashed). */
  byText(root: Document, text: string): QueryAnswer;
  check(el: Element | undefined): ElementCheck;
}

export function makeDomQuery(
  roles: DomRoles,
  names: DomNames,
  ids: ElementIds,
  selectors: ShadowSelector,
): DomQuery {
  /** The document and every open shadow root under it, in document order. */
  const treeRoots = (root: Document): (Document | ShadowRoot)[] => {
    const found: (Document | ShadowRoot)[] = [root];
    const walker = root.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    const pending: Node[] = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const shadow = (node as Element).shadowRoot;
      if (shadow !== null) pending.push(shadow);
    }
    while (pending.length > 0) {
      const shadow = pending.shift() as ShadowRoot;
      found.push(shadow);
      for (const el of Array.from(shadow.querySelectorAll('*'))) {
        if (el.shadowRoot !== null) pending.push(el.shadowRoot);
      }
    }
    return found;
  };

  const match = (el: Element): WireMatch => {
    const role = roles.roleOf(el);
    return { i: ids.idOf(el), r: role, n: names.nameOf(el, role) };
  };

  const hidden = (el: Element): boolean => {
    if (!el.isConnected) return true;
    if (el.closest('[aria-hidden="true"]') !== null) return true;
    return !el.checkVisibility({ visibilityProperty: true });
  };

  const bySelector = (root: Document, selector: string): QueryAnswer => {
    try {
      root.createDocumentFragment().querySelector(selector);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
    const chains = selectors.parse(selector);
    // A selector without combinators matches the same natively, tree by tree.
    const crossing = chains.some((chain) => chain.compounds.length > 1);
    // The rightmost compounds, matched natively, give the candidates in document order.
    const last = chains.map((chain) => chain.compounds[chain.compounds.length - 1]).join(',');
    const matches: WireMatch[] = [];
    for (const tree of treeRoots(root)) {
      for (const el of Array.from(tree.querySelectorAll(crossing ? last : selector))) {
        if (!crossing || selectors.matches(el, chains)) matches.push(match(el));
      }
    }
    return { matches };
  };

  const byRole = (root: Document, role: string, name: string | undefined): QueryAnswer => {
    const matches: WireMatch[] = [];
    for (const tree of treeRoots(root)) {
      for (const el of Array.from(tree.querySelectorAll('*'))) {
        const elRole = roles.roleOf(el);
        if (
          elRole !== role &&
          !(role === 'textbox' && roles.isHtml(el) && el.isContentEditable && elRole === 'generic')
        )
          continue;
        const elName = names.nameOf(el, role);
        if (name !== undefined && elName !== name) continue;
        if (hidden(el)) continue;
        matches.push({ i: ids.idOf(el), r: role, n: elName });
      }
    }
    return { matches };
  };

  const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();
  /** Most matches answered: an assertion needs one, a locator only to know it is not unique. */
  const MAX_TEXT_MATCHES = 20;

  const byText = (root: Document, text: string): QueryAnswer => {
    const needle = squash(text);
    const matches: WireMatch[] = [];
    if (needle === '') return { matches };
    const holds = (el: Element): boolean =>
      !NO_TEXT.has(el.localName) && squash(el.textContent ?? '').includes(needle);
    // Top down, into the children that hold the text: a child that holds all of it answers
    // for its ancestors, and a subtree without it is never read again.
    const descend = (el: Element): void => {
      if (matches.length >= MAX_TEXT_MATCHES || !holds(el)) return;
      const inner = Array.from(el.children).filter(holds);
      if (inner.length === 0) {
        if (!hidden(el)) matches.push(match(el));
        return;
      }
      for (const child of inner) descend(child);
    };
    for (const tree of treeRoots(root)) {
      if (tree instanceof Document) {
        if (tree.body !== null) descend(tree.body);
      } else for (const el of Array.from(tree.children)) descend(el);
    }
    return { matches };
  };

  const check = (el: Element | undefined): ElementCheck => {
    if (el === undefined || !el.isConnected) return { state: 'gone' };
    let role = roles.roleOf(el);
    if (role === 'generic' && roles.isHtml(el) && el.isContentEditable) role = 'textbox';
    if (el.localName === 'svg') role = 'img';
    const name = names.nameOf(el, role);
    return hidden(el) ? { state: 'hidden', role, name } : { state: 'shown', role, name };
  };

  return { bySelector, byRole, byText, check };
}
