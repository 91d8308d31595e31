import { describe, expect, it } from 'vitest';
import { pageOutline } from './frameOutlines';
import { formatOutline } from './outlineFormat';
import { axTree } from './testing/axTree';
import { fakeCdp } from './testing/fakeCdp';
import { frame } from './testing/fakePage';

describe('pageOutline with an out-of-process iframe', () => {
  it('hangs the frame under its owner once, even when its node ids collide with the owner id', async () => {
    // The main page's <iframe> is backend node 7; the child target numbers its nodes from 1 too.
    const main = axTree({
      role: 'RootWebArea',
      children: [
        { role: 'heading', name: 'Top', backendId: 5, props: { level: 1 } },
        { role: 'Iframe', name: 'Child', backendId: 7 },
      ],
    });
    const child = axTree({
      role: 'RootWebArea',
      backendId: 6,
      children: [{ role: 'button', name: 'Inside', backendId: 7 }],
    });
    const cdp = fakeCdp({
      'Accessibility.getFullAXTree': (_params, sessionId) => ({
        nodes: sessionId === 'child-session' ? child : main,
      }),
      'Page.getFrameTree': () => ({ frameTree: { frame: frame('http://127.0.0.1/') } }),
      'DOM.getFrameOwner': () => ({ backendNodeId: 7 }),
    });
    const outline = await pageOutline(cdp, new Map([['child-session', 'child-frame']]));
    expect(formatOutline(outline)).toBe(
      ['- heading "Top" [level=1]', '- Iframe "Child":', '  - button "Inside"'].join('\n'),
    );
    const inner = outline[1];
    const button = inner?.kind === 'element' ? inner.children[0] : undefined;
    expect(button?.kind === 'element' ? button.sessionId : undefined).toBe('child-session');
  });
});
