/**
 * Page side: the outline in one walk over the flat tree (open shadow roots and slots included).
 * Hidden elements are skipped, nameless containers fold away (their children move up), and text
 * of one block joins into one line, the way the accessibility tree reads. Runs inside the page
 * (see domRoles.ts for why it is a factory).
 */
import type { DomNames } from './domNames';
import type { DomRoles } from './domRoles';
import type { DomSecrets } from './domSecrets';
import type { PageConfig, WireElement, WireNode } from './wire';

export interface ElementIds {
  idOf(el: Element): number;
}

export function makeDomWalk(
  config: PageConfig,
  roles: DomRoles,
  names: DomNames,
  ids: ElementIds,
  secrets: DomSecrets,
): (root: Document) => WireNode[] {
  const CONTAINERS = new Set(config.containerRoles);
  const FIELDS = new Set(config.fieldRoles);
  const ACTION_ROLES = new Set(config.actionRoles);
  const READ_ROLES = new Set(config.readRoles);
  const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'datalist']);
  /** Elements with a click listener the main-world hook saw added (recorders/clickListeners.ts). */
  let listened = new Set<Element>();
  /** The element that has the keyboard focus, inside open shadow roots too (not the body). */
  let focused: Element | null = null;

  const focusedIn = (root: Document): Element | null => {
    let el = root.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el === root.body || el === root.documentElement ? null : el;
  };

  /** Asks the hook, synchronously: it fires an item event on each such element. */
  const listenedElements = (root: Document): Set<Element> => {
    const found = new Set<Element>();
    const { request, item } = config.clickListenerEvents;
    const collect = (event: Event): void => {
      const target = event.composedPath()[0];
      if (target !== undefined && roles.isElement(target as Node)) found.add(target as Element);
      event.stopImmediatePropagation();
    };
    const view = root.defaultView;
    if (view === null) return found;
    view.addEventListener(item, collect, true);
    try {
      root.dispatchEvent(new Event(request));
    } finally {
      view.removeEventListener(item, collect, true);
    }
    return found;
  };

  /** A text piece and the block it belongs to; pieces of one block join without a break. */
  interface Piece {
    text: string;
    block: object;
  }
  type Item = Piece | WireElement;

  const isSecret = (el: Element): boolean => secrets.isSecret(el);

  const statesOf = (el: Element, role: string): string[] => {
    const states: string[] = [];
    const ariaChecked = el.getAttribute('aria-checked');
    let checked: boolean | 'mixed' = ariaChecked === 'true' || ariaChecked === 'mixed';
    if (ariaChecked === 'mixed') checked = 'mixed';
    if (roles.isTag(el, 'input') && (el.type === 'checkbox' || el.type === 'radio')) {
      checked = el.indeterminate ? 'mixed' : el.checked;
    }
    if (checked === true) states.push('checked');
    if (checked === 'mixed') states.push('checked=mixed');
    if (el.getAttribute('aria-disabled') === 'true' || el.matches(':disabled'))
      states.push('disabled');
    const expanded =
      el.getAttribute('aria-expanded') === 'true' ||
      (role === 'DisclosureTriangle' && el.parentElement?.hasAttribute('open') === true);
    if (expanded) states.push('expanded');
    if (role === 'heading') {
      const level = roles.headingLevel(el);
      if (level !== undefined) states.push(`level=${level}`);
    }
    const pressed = el.getAttribute('aria-pressed');
    if (pressed === 'true') states.push('pressed');
    if (pressed === 'mixed') states.push('pressed=mixed');
    const selected =
      el.getAttribute('aria-selected') === 'true' || (roles.isTag(el, 'option') && el.selected);
    if (selected) states.push('selected');
    if (el === focused) states.push('active');
    return states;
  };

  const valueOf = (el: Element, role: string): string | undefined => {
    if (roles.isTag(el, 'input') || roles.isTag(el, 'textarea')) {
      if (roles.isTag(el, 'input') && (el.type === 'checkbox' || el.type === 'radio'))
        return undefined;
      if (role === 'button') return undefined;
      return el.value;
    }
    if (roles.isTag(el, 'select')) return el.selectedOptions[0]?.textContent ?? undefined;
    if (roles.isTag(el, 'progress') || roles.isTag(el, 'meter')) return String(el.value);
    if (roles.isHtml(el) && el.isContentEditable) return el.innerText;
    return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? undefined;
  };

  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

  /** The page's own URL, split once per walk: every link is read against it. */
  let base = { origin: 'null', pathAndQuery: '' };
  const baseOf = (url: string): typeof base => {
    try {
      const here = new URL(url);
      return { origin: here.origin, pathAndQuery: `${here.pathname}${here.search}` };
    } catch {
      return { origin: 'null', pathAndQuery: '' };
    }
  };

  /**
   * A link's URL as short as it reads unambiguously next to the page's own URL. String work on
   * the serialised href (absolute already): a URL parsed per link was a fifth of the walk on a
   * page of a thousand links. A URL with userinfo does not start with the origin and stays whole.
   */
  const shortUrl = (href: string): string => {
    if (base.origin === 'null' || !href.startsWith(`${base.origin}/`)) return href;
    const local = href.slice(base.origin.length);
    const hashAt = local.indexOf('#');
    if (hashAt >= 0 && hashAt < local.length - 1 && local.slice(0, hashAt) === base.pathAndQuery)
      return local.slice(hashAt);
    return local;
  };

  const merge = (items: readonly Item[]): WireNode[] => {
    const out: WireNode[] = [];
    let pending: Piece | undefined;
    const flush = (): void => {
      const text = pending === undefined ? '' : squash(pending.text);
      if (text !== '') out.push(text);
      pending = undefined;
    };
    for (const item of items) {
      if (!('text' in item)) {
        flush();
        out.push(item);
      } else if (pending !== undefined && pending.block === item.block) {
        pending.text += item.text;
      } else {
        flush();
        pending = { text: item.text, block: item.block };
      }
    }
    flush();
    return out;
  };

  const textOnly = (nodes: readonly WireNode[]): string | undefined => {
    if (nodes.length === 0) return undefined;
    const texts: string[] = [];
    for (const node of nodes) {
      if (typeof node !== 'string') return undefined;
      texts.push(node);
    }
    return squash(texts.join(' '));
  };

  /** Appends what a node's flat-tree children show to out, as pieces of `block`. */
  const collect = (
    parent: Node,
    block: object,
    textShown: boolean,
    parentPointer: boolean,
    out: Item[],
  ): void => {
    names.eachChild(parent, (child) => {
      if (child.nodeType === 3) {
        if (textShown) out.push({ text: child.nodeValue ?? '', block });
      } else if (roles.isElement(child)) {
        visit(child, block, parentPointer, out);
      }
    });
  };

  const visit = (el: Element, block: object, parentPointer: boolean, out: Item[]): void => {
    const tag = el.localName;
    if (SKIPPED.has(tag)) return;
    if (el.getAttribute('aria-hidden') === 'true') return;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    const shown = style.visibility === 'visible';
    const pointer = style.cursor === 'pointer';
    const inline = display.startsWith('inline') || display === 'contents';
    if (tag === 'br') {
      if (shown) out.push({ text: ' ', block });
      return;
    }
    const role = roles.roleOf(el);
    if (role === 'none' && tag === 'input') return;
    const svg = tag === 'svg';
    const tabIndex = (el as Partial<HTMLElement>).tabIndex ?? -1;
    const focusable = tabIndex >= 0 && !el.matches(':disabled');
    const editable =
      roles.isHtml(el) && el.isContentEditable && el.parentElement?.isContentEditable !== true;
    const effectiveRole = editable && role === 'generic' ? 'textbox' : svg ? 'img' : role;
    const clickHandler =
      (el.hasAttribute('onclick') || listened.has(el)) && CONTAINERS.has(effectiveRole);
    // A label's click goes to its control, which the outline shows with its own ref.
    const custom = shown && tag !== 'label' && ((pointer && !parentPointer) || clickHandler);
    const name = shown ? names.nameOf(el, effectiveRole) : '';
    if (svg) {
      if (shown && name !== '') out.push({ r: 'img', n: name });
      return;
    }
    const folds =
      !shown ||
      (!focusable &&
        !editable &&
        !custom &&
        (effectiveRole === 'presentation' ||
          effectiveRole === 'none' ||
          (CONTAINERS.has(effectiveRole) && name === '')));
    if (folds) {
      // A label around its control only repeats the control's name, which the control shows.
      const named = tag === 'label' && (el as HTMLLabelElement).control?.closest('label') === el;
      collect(el, inline ? block : {}, shown && !named, pointer, out);
      return;
    }

    const node: WireElement = { r: effectiveRole };
    if (name !== '') node.n = name;
    const isField = FIELDS.has(effectiveRole) || editable;
    const frame = tag === 'iframe' || tag === 'frame';
    let children: WireNode[] = [];
    if (!isField && !frame) {
      const items: Item[] = [];
      collect(el, {}, true, pointer, items);
      children = merge(items);
      if (name !== '' && textOnly(children) === squash(name)) children = [];
    }
    // A list item that only wraps one control (a list of links) adds a line and nothing else.
    const only = children[0];
    if (role === 'listitem' && children.length === 1 && typeof only === 'object' && !custom) {
      if (!focusable && name === '' && statesOf(el, role).length === 0) {
        out.push(only);
        return;
      }
    }
    if (children.length > 0) node.c = children;
    else {
      const value = valueOf(el, effectiveRole);
      if (value !== undefined && value !== '') {
        if (isSecret(el)) node.h = 1;
        else node.v = squash(value);
      }
    }
    const states = statesOf(el, effectiveRole);
    if (states.length > 0) node.s = states;
    if (effectiveRole === 'link' && el.hasAttribute('href')) {
      node.u = shortUrl((el as HTMLAnchorElement).href);
    }
    const acted = ACTION_ROLES.has(effectiveRole);
    if (custom && !acted) node.p = 1;
    if (frame) node.f = 1;
    if (focusable || editable || custom || frame || acted || READ_ROLES.has(effectiveRole))
      node.i = ids.idOf(el);
    out.push(node);
  };

  return (root: Document): WireNode[] => {
    listened = listenedElements(root);
    focused = focusedIn(root);
    base = baseOf(root.URL);
    const items: Item[] = [];
    const top = root.body ?? root.documentElement;
    if (top !== null) collect(top, {}, true, false, items);
    return merge(items);
  };
}
