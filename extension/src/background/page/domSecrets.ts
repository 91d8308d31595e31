/**
 * Page side: which fields hold secrets, by shared/secretKind.ts's rule (passed in as regex
 * sources), plus the model world's memory of inputs it ever saw as passwords, so a page's
 * "show password" toggle (type=password → text) does not reveal the value. Runs inside the page
 * (see domRoles.ts for why it is a factory).
 */
import type { findPrinted, SecretPrints } from '@browser-agent/protocol';
import type { PageConfig } from './wire';

export interface DomSecrets {
  isSecret(el: Element): boolean;
  /**
   * Paints the text of every secret field of the document (open shadow roots included) in
   * transparent ink, and every `--secrets` value shown as page text or in another field when
   * `prints` are given, or undoes it: the screenshot and PDF mask. Returns how many fields and
   * spans it covered. `print`: the text of those spans is swapped for discs until undone, since
   * a PDF keeps transparent text in its text layer.
   */
  mask(on: boolean, prints?: SecretPrints | null, print?: boolean): number;
}

export function makeDomSecrets(config: PageConfig, find: typeof findPrinted): DomSecrets {
  const AUTOCOMPLETE = new RegExp(config.secretAutocomplete);
  const NAME = new RegExp(config.secretFieldName, 'i');
  const ever = new WeakSet<Element>();
  // SECRET_FIELD_FUNCTION (shared/secretKind.ts) consults it when it runs in this world.
  (
    globalThis as unknown as { __browserAgentEverSecret: WeakSet<Element> }
  ).__browserAgentEverSecret = ever;
  const remember = (root: ParentNode): void => {
    for (const el of Array.from(root.querySelectorAll('input[type="password" i]'))) ever.add(el);
  };
  remember(document);
  // The toggle may flip the type between two snapshots: the old value is what tells.
  new MutationObserver((records) => {
    for (const r of records) {
      if ((r.oldValue ?? '').toLowerCase() === 'password') ever.add(r.target as Element);
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ['type'],
    attributeOldValue: true,
  });

  const isSecret = (el: Element): boolean => {
    if (el.localName !== 'input') return false;
    const input = el as HTMLInputElement;
    const type = input.type.toLowerCase();
    if (type === 'password') {
      ever.add(el);
      return true;
    }
    if (ever.has(el)) return true;
    if (AUTOCOMPLETE.test((el.getAttribute('autocomplete') ?? '').toLowerCase())) return true;
    if (type !== 'text' && type !== '') return false;
    return NAME.test(el.getAttribute('name') ?? '') || NAME.test(el.id);
  };
  // Transparent ink hides glyphs from pixels, but a PDF keeps transparent text in its text
  // layer: the discs of -webkit-text-security keep the value out of its bytes as well.
  const MASKED: [string, string][] = [
    ['color', 'transparent'],
    ['-webkit-text-fill-color', 'transparent'],
    ['text-shadow', 'none'],
    ['caret-color', 'transparent'],
    ['-webkit-text-security', 'disc'],
  ];
  const saved = new Map<HTMLElement, string[]>();
  // Text that is never painted, or a field whose value is checked as a field.
  const UNPAINTED = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'title']);
  // The document and its open shadow roots, each with its elements, in one pass.
  type Tree = { root: Document | ShadowRoot; elements: Element[] };
  const trees = (root: Document | ShadowRoot, out: Tree[]): Tree[] => {
    const elements = Array.from(root.querySelectorAll('*'));
    out.push({ root, elements });
    for (const el of elements) if (el.shadowRoot !== null) trees(el.shadowRoot, out);
    return out;
  };
  const holdsSecret = (el: Element, prints: SecretPrints | null | undefined): boolean => {
    if (isSecret(el)) return true;
    if (prints == null || (el.localName !== 'input' && el.localName !== 'textarea')) return false;
    return find((el as HTMLInputElement).value, prints).length > 0;
  };
  const hideField = (field: HTMLElement): void => {
    if (saved.has(field)) return;
    saved.set(
      field,
      MASKED.map(
        ([p]) => `${field.style.getPropertyValue(p)}|${field.style.getPropertyPriority(p)}`,
      ),
    );
    for (const [prop, value] of MASKED) field.style.setProperty(prop, value, 'important');
  };
  const showFields = (): number => {
    for (const [el, values] of saved) {
      MASKED.forEach(([prop], i) => {
        const [value = '', priority = ''] = (values[i] ?? '').split('|');
        if (value === '') el.style.removeProperty(prop);
        else el.style.setProperty(prop, value, priority);
      });
    }
    const n = saved.size;
    saved.clear();
    return n;
  };
  // A value shown as text is covered by a CSS custom highlight under a name the page cannot
  // guess, so for pixels no node of the page is touched. For print the text itself is swapped
  // for discs until the PDF is made (a PDF keeps even transparent text), then put back.
  let shown:
    | {
        name: string;
        sheet: CSSStyleSheet;
        roots: (Document | ShadowRoot)[];
        swapped: [Text, string, string][];
      }
    | undefined;
  const hideText = (all: Tree[], prints: SecretPrints, print: boolean) => {
    const ranges: Range[] = [];
    const touched: (Document | ShadowRoot)[] = [];
    const swapped: [Text, string, string][] = [];
    for (const { root } of all) {
      const before = ranges.length;
      // The root's painted text as one string, so a value split across nodes (`<b>sk-</b>abc`,
      // a highlighter's spans) is found too; each match is cut back into its nodes' pieces.
      const nodes: Text[] = [];
      const starts: number[] = [];
      let joined = '';
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node as Text;
        if (UNPAINTED.has(text.parentElement?.localName ?? '') || text.data === '') continue;
        nodes.push(text);
        starts.push(joined.length);
        joined += text.data;
      }
      const pieces = new Map<Text, [number, number][]>();
      let first = 0;
      for (const [start, end] of find(joined, prints)) {
        while (first < nodes.length - 1 && (starts[first + 1] ?? 0) <= start) first += 1;
        for (let i = first; i < nodes.length && (starts[i] ?? 0) < end; i += 1) {
          const text = nodes[i] as Text;
          const at = starts[i] ?? 0;
          const piece: [number, number] = [
            Math.max(start, at) - at,
            Math.min(end, at + text.data.length) - at,
          ];
          if (piece[1] > piece[0]) pieces.set(text, [...(pieces.get(text) ?? []), piece]);
        }
      }
      for (const [text, spans] of pieces) {
        if (print) {
          const original = text.data;
          let data = original;
          for (const [start, end] of spans) {
            data = data.slice(0, start) + '\u2022'.repeat(end - start) + data.slice(end);
          }
          text.data = data;
          swapped.push([text, original, data]);
        }
        for (const [start, end] of spans) {
          const range = document.createRange();
          range.setStart(text, start);
          range.setEnd(text, end);
          ranges.push(range);
        }
      }
      if (ranges.length > before) touched.push(root);
    }
    const name = `ba-secret-${Math.random().toString(36).slice(2)}`;
    const sheet = new CSSStyleSheet();
    if (ranges.length > 0 && typeof Highlight !== 'undefined') {
      const highlight = new Highlight(...ranges);
      highlight.priority = 1_000_000;
      CSS.highlights.set(name, highlight);
      sheet.replaceSync(
        `::highlight(${name}){color:transparent;-webkit-text-fill-color:transparent;` +
          '-webkit-text-stroke-color:transparent;text-shadow:none;text-decoration:none;' +
          'background-color:#808080}',
      );
      // A ::highlight rule styles the text of its own tree only: each shadow root gets the sheet.
      for (const root of touched) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    } else if (swapped.length === 0) {
      return 0;
    }
    shown = { name, sheet, roots: touched, swapped };
    return ranges.length;
  };
  const showText = (): number => {
    if (shown === undefined) return 0;
    const { name, sheet, roots: touched, swapped } = shown;
    shown = undefined;
    CSS.highlights.delete(name);
    for (const root of touched) {
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== sheet);
    }
    // Text the page changed meanwhile is the page's now: only the discs are put back.
    for (const [text, original, data] of swapped) if (text.data === data) text.data = original;
    return 1;
  };
  const mask = (on: boolean, prints?: SecretPrints | null, print = false): number => {
    if (!on) return showFields() + showText();
    const all = trees(document, []);
    for (const { elements } of all) {
      for (const el of elements) if (holdsSecret(el, prints)) hideField(el as HTMLElement);
    }
    showText();
    const spans = prints == null ? 0 : hideText(all, prints, print);
    return saved.size + spans;
  };
  return { isSecret, mask };
}
