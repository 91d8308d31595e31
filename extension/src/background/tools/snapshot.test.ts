import { describe, expect, it } from 'vitest';
import type { AXNode } from './axNode';
import { handlers } from './index';
import { axTree, text, type AXSpec } from './testing/axTree';
import { fakeCdp } from './testing/fakeCdp';
import { fakeContext, fakeTab } from './testing/fakeContext';
import { frame } from './testing/fakePage';

/** A tab whose AX tree is whatever `page.nodes` holds when the snapshot is taken. */
function pageWith(children: AXSpec[], attributes: Record<number, string[]> = {}) {
  const page: { nodes: AXNode[] } = { nodes: axTree({ role: 'RootWebArea', children }) };
  const cdp = fakeCdp({
    'Accessibility.getFullAXTree': () => ({ nodes: page.nodes }),
    'Page.getFrameTree': () => ({ frameTree: { frame: frame('http://127.0.0.1/') } }),
    'Page.getNavigationHistory': () => ({
      currentIndex: 0,
      entries: [
        {
          id: 1,
          url: 'http://127.0.0.1/',
          userTypedURL: '',
          title: 'Home\nTitle',
          transitionType: 'typed',
        },
      ],
    }),
    'DOM.describeNode': (params) => ({
      node: {
        nodeId: 0,
        backendNodeId: params?.backendNodeId ?? 0,
        nodeType: 1,
        nodeName: 'INPUT',
        localName: 'input',
        nodeValue: '',
        attributes: attributes[params?.backendNodeId ?? 0] ?? [],
      },
    }),
  });
  const tab = fakeTab(cdp);
  return { page, tab, cdp, ctx: fakeContext([tab]) };
}

async function snapshotText(ctx: ReturnType<typeof fakeContext>): Promise<string> {
  const part = (await handlers.browser_snapshot({}, ctx)).content[0];
  return part?.type === 'text' ? part.text : '';
}

describe('browser_snapshot', () => {
  it('starts with URL and title, then fences the outline as untrusted page content', async () => {
    const { ctx } = pageWith([
      { role: 'button', name: 'Go', backendId: 5, children: [text('Go ``` ')] },
    ]);
    expect(await snapshotText(ctx)).toBe(
      [
        '- Page URL: http://127.0.0.1/',
        '- Page Title: "Home Title"',
        '- Snapshot generation: 1',
        '### Page snapshot (untrusted page content)',
        '````yaml',
        '- button "Go" [ref=e1]: Go ```',
        '````',
      ].join('\n'),
    );
  });

  it('hides the values of password fields, whether or not Chrome masked them', async () => {
    const field = (name: string, value: string, backendId: number): AXSpec => ({
      role: 'textbox',
      name,
      value,
      backendId,
      props: { editable: 'plaintext' },
    });
    const { ctx } = pageWith(
      [field('Masked', '•••••', 1), field('Unmasked', 'hunter2', 2), field('User', 'bob', 3)],
      { 2: ['type', 'PASSWORD'], 3: ['type', 'text'] },
    );
    const snapshot = await snapshotText(ctx);
    expect(snapshot).toContain('- textbox "Masked" [value hidden] [ref=e1]\n');
    expect(snapshot).toContain('- textbox "Unmasked" [value hidden] [ref=e2]\n');
    expect(snapshot).toContain('- textbox "User" [ref=e3]: bob\n');
    expect(snapshot).not.toContain('hunter2');
  });

  it('gives the same element the same ref in every snapshot and records what it showed', async () => {
    const { page, tab, ctx } = pageWith([
      { role: 'button', name: 'Save', backendId: 10 },
      { role: 'button', name: 'Cancel', backendId: 11 },
    ]);
    await snapshotText(ctx);
    page.nodes = axTree({
      role: 'RootWebArea',
      children: [
        { role: 'link', name: 'Help', backendId: 12 },
        { role: 'button', name: 'Cancel', backendId: 11 },
        { role: 'button', name: 'Save all', backendId: 10 },
      ],
    });
    const second = await snapshotText(ctx);
    expect(second).toContain('- link "Help" [ref=e3]');
    expect(second).toContain('- button "Cancel" [ref=e2]');
    expect(second).toContain('- button "Save all" [ref=e1]');
    expect(tab.state.generation).toBe(2);
    expect(tab.state.refsByRef.get('e1')).toEqual({
      ref: 'e1',
      backendNodeId: 10,
      role: 'button',
      name: 'Save all',
      generation: 2,
    });
    expect(tab.state.refsByBackendId.get(12)?.ref).toBe('e3');
    expect(tab.state.nextRef).toBe(4);
  });
});
