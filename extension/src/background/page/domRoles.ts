/**
 * Page side: the role of a DOM element, from its role attribute or its tag (the HTML-AAM mapping
 * for the elements pages use). Runs inside the page, so it is a factory that closes over nothing
 * outside itself; pageScript.ts serialises it.
 */

export interface DomRoles {
  roleOf(el: Element): string;
  headingLevel(el: Element): number | undefined;
  /**
   * Type tests by node type and tag, never instanceof: a node's wrapper may come from another
   * frame's context of the same world (a CDP call that pierced frames made it there first),
   * and then instanceof this context's classes is false.
   */
  isElement(node: Node): node is Element;
  isHtml(el: Element): el is HTMLElement;
  isTag<K extends keyof HTMLElementTagNameMap>(el: Element, tag: K): el is HTMLElementTagNameMap[K];
}

export function makeDomRoles(): DomRoles {
  const ARIA_ROLES = new Set(
    (
      'alert alertdialog application article banner blockquote button caption cell checkbox code ' +
      'columnheader combobox complementary contentinfo definition deletion dialog directory document ' +
      'emphasis feed figure form generic grid gridcell group heading img insertion link list listbox ' +
      'listitem log main marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter ' +
      'navigation none note option paragraph presentation progressbar radio radiogroup region row ' +
      'rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong ' +
      'subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar ' +
      'tooltip tree treegrid treeitem'
    ).split(' '),
  );
  const TAG_ROLES: Record<string, string> = {
    article: 'article',
    aside: 'complementary',
    blockquote: 'blockquote',
    button: 'button',
    caption: 'caption',
    dd: 'definition',
    details: 'group',
    dialog: 'dialog',
    dt: 'term',
    fieldset: 'group',
    figure: 'figure',
    form: 'form',
    frame: 'Iframe',
    h1: 'heading',
    h2: 'heading',
    h3: 'heading',
    h4: 'heading',
    h5: 'heading',
    h6: 'heading',
    hr: 'separator',
    iframe: 'Iframe',
    label: 'LabelText',
    li: 'listitem',
    main: 'main',
    math: 'math',
    menu: 'list',
    meter: 'meter',
    nav: 'navigation',
    ol: 'list',
    optgroup: 'group',
    option: 'option',
    output: 'status',
    p: 'paragraph',
    progress: 'progressbar',
    summary: 'DisclosureTriangle',
    table: 'table',
    tbody: 'rowgroup',
    textarea: 'textbox',
    tfoot: 'rowgroup',
    thead: 'rowgroup',
    tr: 'row',
    ul: 'list',
    video: 'video',
    audio: 'Audio',
    canvas: 'Canvas',
  };
  const INPUT_ROLES: Record<string, string> = {
    button: 'button',
    checkbox: 'checkbox',
    color: 'button',
    file: 'button',
    image: 'button',
    number: 'spinbutton',
    radio: 'radio',
    range: 'slider',
    reset: 'button',
    search: 'searchbox',
    submit: 'button',
  };
  const LANDMARK_SCOPES = 'article, aside, main, nav, section';

  const implicitRole = (el: Element): string => {
    const tag = el.localName;
    const known = TAG_ROLES[tag];
    if (known !== undefined) return known;
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : 'generic';
      case 'input': {
        const type = (el.getAttribute('type') ?? 'text').toLowerCase();
        if (type === 'hidden') return 'none';
        const role = INPUT_ROLES[type];
        if (role !== undefined) return role;
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      case 'select': {
        const select = el as HTMLSelectElement;
        return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
      }
      case 'img':
        return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'presentation' : 'img';
      case 'td':
        return 'cell';
      case 'th':
        return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'header':
        return el.parentElement?.closest(LANDMARK_SCOPES) ? 'generic' : 'banner';
      case 'footer':
        return el.parentElement?.closest(LANDMARK_SCOPES) ? 'generic' : 'contentinfo';
      case 'section':
        return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')
          ? 'region'
          : 'generic';
      default:
        return 'generic';
    }
  };

  const roleOf = (el: Element): string => {
    const explicit = el.getAttribute('role');
    if (explicit !== null) {
      for (const token of explicit.trim().toLowerCase().split(/\s+/)) {
        if (ARIA_ROLES.has(token)) return token;
      }
    }
    return implicitRole(el);
  };

  const headingLevel = (el: Element): number | undefined => {
    const aria = Number(el.getAttribute('aria-level'));
    if (Number.isInteger(aria) && aria > 0) return aria;
    const match = /^h([1-6])$/.exec(el.localName);
    return match === null ? undefined : Number(match[1]);
  };

  const XHTML = 'http://www.w3.org/1999/xhtml';
  const isElement = (node: Node): node is Element => node.nodeType === 1;
  const isHtml = (el: Element): el is HTMLElement => el.namespaceURI === XHTML;
  const isTag = <K extends keyof HTMLElementTagNameMap>(
    el: Element,
    tag: K,
  ): el is HTMLElementTagNameMap[K] => el.localName === tag && el.namespaceURI === XHTML;

  return { roleOf, headingLevel, isElement, isHtml, isTag };
}
