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

/** Roles an agent acts on, reads or points evaluate at: every element of these roles gets a ref. */
export const REF_ROLES: ReadonlySet<string> = new Set([
  // acted on
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
  // read
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
  'listitem',
  'meter',
  'progressbar',
  'row',
  'rowheader',
  'tabpanel',
  'video',
  'Audio',
  'Canvas',
]);
