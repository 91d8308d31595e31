/**
 * Page side: which fields hold secrets, by shared/secretKind.ts's rule (passed in as regex
 * sources), plus the model world's memory of inputs it ever saw as passwords, so a page's
 * "show password" toggle (type=password → text) does not reveal the value. Runs inside the page
 * (see domRoles.ts for why it is a factory).
 */
import type { PageConfig } from './wire';

export interface DomSecrets {
  isSecret(el: Element): boolean;
  /**
   * Paints the text of every secret field of the document (open shadow roots included) in
   * transparent ink, or undoes it: the screenshot mask. Returns how many fields it covered.
   */
  mask(on: boolean): number;
}

export function makeDomSecrets(config: PageConfig): DomSecrets {
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
  const MASKED = ['color', '-webkit-text-fill-color', 'text-shadow', 'caret-color'];
  const saved = new Map<HTMLElement, string[]>();
  const fields = (root: Document | ShadowRoot, out: HTMLElement[]): HTMLElement[] => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (isSecret(el)) out.push(el as HTMLElement);
      if (el.shadowRoot !== null) fields(el.shadowRoot, out);
    }
    return out;
  };
  const mask = (on: boolean): number => {
    if (!on) {
      for (const [el, values] of saved) {
        MASKED.forEach((prop, i) => {
          const [value = '', priority = ''] = (values[i] ?? '').split('|');
          if (value === '') el.style.removeProperty(prop);
          else el.style.setProperty(prop, value, priority);
        });
      }
      const n = saved.size;
      saved.clear();
      return n;
    }
    for (const el of fields(document, [])) {
      if (!saved.has(el)) {
        saved.set(
          el,
          MASKED.map((p) => `${el.style.getPropertyValue(p)}|${el.style.getPropertyPriority(p)}`),
        );
      }
      for (const prop of MASKED) {
        el.style.setProperty(prop, prop === 'text-shadow' ? 'none' : 'transparent', 'important');
      }
    }
    return saved.size;
  };
  return { isSecret, mask };
}
