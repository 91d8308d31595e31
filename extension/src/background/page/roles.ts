/**
 * Role policy for the outline: which elements fold into their parent, which show a value, and
 * which get a ref. The page-side builder (page/domWalk.ts) receives these sets as its config.
 * Roles are ARIA roles, plus a few Chrome names agents already know (Iframe, LabelText,
 * DisclosureTriangle).
 */

/** Nameless containers with no meaning of their own: their children are shown in their place. */
export const CONTAINER_ROLES: ReadonlySet<string> = new Set([
  'generic',
  'none',
  'presentation',
  'LabelText',
  'rowgroup',
  'caption',
]);

/** Roles whose content is their value: the value is shown, the text inside is not. */
export const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'spinbutton']);

/** Roles an agent acts on: they get a ref, and a pointer cursor on them says nothing new. */
export const ACTION_ROLES: ReadonlySet<string> = new Set([
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

/**
 * Roles an agent reads or points evaluate at: they get a ref too. List items do not: a list item
 * holding a link would cost two refs per link on a link-heavy page for no new action.
 */
export const READ_ROLES: ReadonlySet<string> = new Set([
  'alert',
  'alertdialog',
  'cell',
  'columnheader',
  'dialog',
  'figure',
  'gridcell',
  'heading',
  'Iframe',
  'img',
  'meter',
  'progressbar',
  'row',
  'rowheader',
  'tabpanel',
  'video',
  'Audio',
  'Canvas',
]);
