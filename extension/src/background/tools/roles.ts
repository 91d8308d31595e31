/**
 * Role policy for the outline: which nodes are shown, which are folded into their parent, and
 * which get a ref. Roles are Chrome's AX role strings (ARIA roles plus Chrome's internal ones,
 * which start with a capital letter, e.g. LabelText, MenuListPopup).
 */

/** Never shown: Chrome's per-line text boxes and list bullets repeat what StaticText already says. */
export const DROPPED_ROLES: ReadonlySet<string> = new Set(['InlineTextBox', 'ListMarker']);

/** Nameless containers with no meaning of their own: their children are shown in their place. */
export const CONTAINER_ROLES: ReadonlySet<string> = new Set([
  'generic',
  'none',
  'presentation',
  'LabelText',
  'MenuListPopup',
  'Section',
  'Pre',
  'Ruby',
]);

/** Text-level roles: their text flows into the surrounding sentence. */
export const INLINE_ROLES: ReadonlySet<string> = new Set([
  'strong',
  'emphasis',
  'code',
  'mark',
  'time',
  'Abbr',
  'subscript',
  'superscript',
  'deletion',
  'insertion',
]);

/** Roles whose content is their value: the value is shown, the text inside is not. */
export const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'spinbutton']);

/** Roles an agent acts on. Every element of these roles gets a ref. */
const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'combobox',
  'DisclosureTriangle',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

/** Roles an agent reads or points evaluate at. */
const READABLE_ROLES: ReadonlySet<string> = new Set([
  'alert',
  'alertdialog',
  'cell',
  'columnheader',
  'dialog',
  'figure',
  'gridcell',
  'heading',
  'Iframe',
  'image',
  'img',
  'listitem',
  'meter',
  'progressbar',
  'row',
  'rowheader',
  'tabpanel',
  'video',
  'Video',
  'Audio',
  'Canvas',
]);

export function wantsRef(role: string, focusable: boolean, editable: boolean): boolean {
  return focusable || editable || INTERACTIVE_ROLES.has(role) || READABLE_ROLES.has(role);
}
