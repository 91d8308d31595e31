/**
 * Page side: accessible names, after the accname steps pages rely on: aria-labelledby,
 * aria-label, the native label (label elements, alt, legend, caption, title of a frame), the
 * text content for roles named from content, then title and placeholder. Runs inside the page
 * (see domRoles.ts for why it is a factory).
 */
import type { DomRoles } from './domRoles';
import type { DomSecrets } from './domSecrets';

export interface DomNames {
  nameOf(el: Element, role: string): string;
  /** The flat-tree children of a node: an open shadow root's, a slot's assigned nodes. */
  eachChild(node: Node, fn: (child: Node) => void): void;
}

export function makeDomNames(roles: DomRoles, secrets: DomSecrets): DomNames {
  const FROM_CONTENT = new Set([
    'button',
    'cell',
    'checkbox',
    'columnheader',
    'DisclosureTriangle',
    'gridcell',
    'heading',
    'link',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'rowheader',
    'switch',
    'tab',
    'tooltip',
    'treeitem',
  ]);
  const TEXT_FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

  /**
   * Hands each of the node's flat-tree children to fn, in order: an open shadow root's children,
   * a slot's assigned nodes, or its own. Siblings are followed by nextSibling: indexing the live
   * childNodes list cost a fifth of a walk of a big page (#26).
   */
  const eachChild = (node: Node, fn: (child: Node) => void): void => {
    let first = node.firstChild;
    if (roles.isElement(node)) {
      const shadow = node.shadowRoot;
      if (shadow !== null) first = shadow.firstChild;
      else if (roles.isTag(node, 'slot')) {
        const assigned = node.assignedNodes();
        if (assigned.length > 0) {
          for (const child of assigned) fn(child);
          return;
        }
      }
    }
    for (let child = first; child !== null; child = child.nextSibling) fn(child);
  };

  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

  const isHidden = (el: Element): boolean => {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden';
  };

  const controlText = (el: Element, role: string): string => {
    if (roles.isTag(el, 'select')) return el.selectedOptions[0]?.textContent ?? '';
    if (roles.isTag(el, 'input') || roles.isTag(el, 'textarea')) {
      // A password inside a <label>, or named by aria-labelledby, is never part of a name.
      if (secrets.isSecret(el)) return '';
      return TEXT_FIELDS.has(role) ? el.value : '';
    }
    return '';
  };

  /** Text of a subtree as a name: hidden parts skipped, embedded controls by their value. */
  const contentText = (node: Node, skip: Element | undefined, withHidden: boolean): string => {
    let out = '';
    eachChild(node, (child) => {
      if (child.nodeType === 3) {
        out += child.nodeValue ?? '';
        return;
      }
      if (!roles.isElement(child) || child === skip) return;
      const tag = child.localName;
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript') return;
      if (!withHidden && isHidden(child)) return;
      const label = child.getAttribute('aria-label');
      const role = roles.roleOf(child);
      let text: string;
      if (label !== null && label.trim() !== '') text = label;
      else if (tag === 'img') text = child.getAttribute('alt') ?? '';
      else if (tag === 'input' || tag === 'select' || tag === 'textarea')
        text = controlText(child, role);
      else text = contentText(child, skip, withHidden);
      const inline = getComputedStyle(child).display.startsWith('inline');
      out += inline ? text : ` ${text} `;
    });
    return out;
  };

  const byIds = (el: Element, ids: string): string => {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts: string[] = [];
    for (const id of ids.trim().split(/\s+/)) {
      const target = root.getElementById(id);
      if (target === null) continue;
      const label = target.getAttribute('aria-label');
      parts.push(
        label !== null && label.trim() !== '' ? label : contentText(target, undefined, true),
      );
    }
    return squash(parts.join(' '));
  };

  const nativeName = (el: Element, role: string): string => {
    const tag = el.localName;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      const type = (el.getAttribute('type') ?? '').toLowerCase();
      if (tag === 'input' && (type === 'submit' || type === 'reset' || type === 'button')) {
        const value = el.getAttribute('value');
        if (value !== null) return squash(value);
        return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
      }
      if (tag === 'input' && type === 'image') return squash(el.getAttribute('alt') ?? 'Submit');
      const labels = (el as HTMLInputElement).labels;
      if (labels !== null && labels.length > 0) {
        const text = squash(Array.from(labels, (label) => contentText(label, el, false)).join(' '));
        if (text !== '') return text;
      }
      return '';
    }
    if (tag === 'img' || tag === 'area') return squash(el.getAttribute('alt') ?? '');
    if (tag === 'fieldset') {
      const legend = el.querySelector(':scope > legend');
      return legend === null ? '' : squash(contentText(legend, undefined, false));
    }
    if (tag === 'table') {
      const caption = el.querySelector(':scope > caption');
      return caption === null ? '' : squash(contentText(caption, undefined, false));
    }
    if (tag === 'svg') {
      const title = el.querySelector(':scope > title');
      return title === null ? '' : squash(title.textContent ?? '');
    }
    if (FROM_CONTENT.has(role)) return squash(contentText(el, undefined, false));
    return '';
  };

  const nameOf = (el: Element, role: string): string => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy !== null) {
      const text = byIds(el, labelledBy);
      if (text !== '') return text;
    }
    const label = el.getAttribute('aria-label');
    if (label !== null && label.trim() !== '') return squash(label);
    const native = nativeName(el, role);
    if (native !== '') return native;
    const title = el.getAttribute('title');
    if (title !== null && title.trim() !== '') return squash(title);
    const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    return placeholder === null ? '' : squash(placeholder);
  };

  return { nameOf, eachChild };
}
