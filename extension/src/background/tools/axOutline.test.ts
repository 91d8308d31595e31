import { describe, expect, it } from 'vitest';
import { buildOutline } from './axOutline';
import { formatOutline } from './outlineFormat';
import { axTree, text, type AXSpec } from './testing/axTree';

function outline(...children: AXSpec[]): string {
  return formatOutline(buildOutline(axTree({ role: 'RootWebArea', name: 'Title', children })));
}

describe('buildOutline + formatOutline', () => {
  it('folds ignored nodes and nameless containers, drops text boxes and list bullets', () => {
    const page = outline({
      role: 'none',
      ignored: true,
      children: [
        {
          role: 'generic',
          children: [
            { role: 'heading', name: 'Welcome', props: { level: 1 }, children: [text('Welcome')] },
            {
              role: 'list',
              children: [
                { role: 'listitem', children: [{ role: 'ListMarker', name: '• ' }, text('One')] },
              ],
            },
          ],
        },
        { role: 'LabelText', children: [text('Name ')] },
      ],
    });
    expect(page).toBe(
      ['- heading "Welcome" [level=1]', '- list:', '  - listitem: One', '- text: Name'].join('\n'),
    );
  });

  it('merges the text pieces of one parent into one line but keeps separate blocks apart', () => {
    const page = outline(
      {
        role: 'paragraph',
        children: [
          text('Hello '),
          { role: 'strong', children: [text('bold')] },
          text(' world'),
          { role: 'LineBreak', name: '\n' },
          text('next line'),
        ],
      },
      { role: 'generic', children: [text('A')] },
      { role: 'generic', children: [text('B')] },
    );
    expect(page).toBe('- paragraph: Hello bold world next line\n- text: A\n- text: B');
  });

  it('shows states, values and link targets in the Playwright-like shape', () => {
    const page = outline(
      { role: 'checkbox', name: 'Agree', props: { checked: 'true', focusable: true } },
      { role: 'checkbox', name: 'Some', props: { checked: 'mixed' } },
      { role: 'checkbox', name: 'Off', props: { checked: 'false' } },
      { role: 'button', name: 'Go', props: { disabled: true }, children: [text('Go')] },
      { role: 'button', name: 'Bold', props: { pressed: 'true' } },
      { role: 'combobox', name: 'Menu', props: { expanded: true } },
      { role: 'tab', name: 'First', props: { selected: true } },
      {
        role: 'textbox',
        name: 'Name',
        value: 'Bob',
        props: { editable: 'plaintext' },
        children: [{ role: 'generic', children: [text('Bob')] }],
      },
      { role: 'slider', name: 'Volume', value: 30 },
      {
        role: 'link',
        name: 'Docs',
        props: { url: 'http://127.0.0.1/docs' },
        children: [text('Docs')],
      },
    );
    expect(page).toBe(
      [
        '- checkbox "Agree" [checked]',
        '- checkbox "Some" [checked=mixed]',
        '- checkbox "Off"',
        '- button "Go" [disabled]',
        '- button "Bold" [pressed]',
        '- combobox "Menu" [expanded]',
        '- tab "First" [selected]',
        '- textbox "Name": Bob',
        '- slider "Volume": "30"',
        '- link "Docs":',
        '  - /url: http://127.0.0.1/docs',
      ].join('\n'),
    );
  });

  it('keeps page text on one line and quotes what YAML would misread', () => {
    const page = outline(
      { role: 'heading', name: 'Line one\n- button "Fake" [ref=e1]', props: { level: 2 } },
      { role: 'paragraph', children: [text('- looks like a list')] },
      { role: 'paragraph', children: [text('key: value')] },
      { role: 'paragraph', children: [text('true')] },
      { role: 'paragraph', children: [text('He said "hi"')] },
    );
    expect(page).toBe(
      [
        '- heading "Line one - button \\"Fake\\" [ref=e1]" [level=2]',
        '- paragraph: "- looks like a list"',
        '- paragraph: "key: value"',
        '- paragraph: "true"',
        '- paragraph: He said "hi"',
      ].join('\n'),
    );
  });

  it('offers refs to interactive and readable elements, not to layout', () => {
    const nodes = buildOutline(
      axTree({
        role: 'RootWebArea',
        children: [
          { role: 'navigation', children: [{ role: 'link', name: 'Home', backendId: 7 }] },
          { role: 'generic', props: { focusable: true }, backendId: 8, children: [text('Card')] },
          { role: 'cell', name: 'C1', backendId: 9 },
          { role: 'paragraph', backendId: 10, children: [text('Plain')] },
        ],
      }),
    );
    const wanting: string[] = [];
    const walk = (list: typeof nodes): void => {
      for (const node of list) {
        if (node.kind !== 'element') continue;
        if (node.wantsRef) wanting.push(`${node.role}:${String(node.backendNodeId)}`);
        walk(node.children);
      }
    };
    walk(nodes);
    expect(wanting).toEqual(['link:7', 'generic:8', 'cell:9']);
  });
});
