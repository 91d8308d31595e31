import { describe, expect, it } from 'vitest';
import type { TabHandle } from '../tabStates';
import { pointFrameUrl } from './targetFrame';

/** A tab whose top frame holds a same-process frame `inner` and an out-of-process iframe. */
function tab(hit: { backendNodeId: number; frameId: string }, ownerOf?: string) {
  const sent: { method: string; params: unknown; sessionId: string | undefined }[] = [];
  const trees: Record<string, unknown> = {
    top: {
      frame: { id: 'main', url: 'https://shop.test/' },
      childFrames: [{ frame: { id: 'inner', url: 'https://shop.test/widget' } }],
    },
    'oopif-session': { frame: { id: 'oopif', url: 'https://bank.test/pay' } },
  };
  const send = (method: string, params: unknown, sessionId?: string) => {
    sent.push({ method, params, sessionId });
    if (method === 'DOM.getNodeForLocation') return Promise.resolve({ ...hit });
    if (method === 'DOM.describeNode')
      return Promise.resolve({ node: ownerOf === undefined ? {} : { frameId: ownerOf } });
    if (method === 'Page.getFrameTree')
      return Promise.resolve({ frameTree: trees[sessionId ?? 'top'] });
    return Promise.reject(new Error(method));
  };
  const handle = {
    tabId: 1,
    cdp: { send },
    state: { childFrames: new Map([['oopif-session', 'oopif']]) },
  } as unknown as TabHandle;
  return { handle, sent };
}

describe('pointFrameUrl', () => {
  it('is the frame the top frame’s hit test lands in', async () => {
    const { handle, sent } = tab({ backendNodeId: 5, frameId: 'inner' });
    expect(await pointFrameUrl(handle, 10.4, 20.6)).toBe('https://shop.test/widget');
    expect(sent[0]?.params).toMatchObject({ x: 10, y: 21 });
  });
  it('is the out-of-process iframe’s own document when the point hits its owner element', async () => {
    const { handle } = tab({ backendNodeId: 9, frameId: 'main' }, 'oopif');
    expect(await pointFrameUrl(handle, 1, 1)).toBe('https://bank.test/pay');
  });
  it('is undefined when nothing can be hit', async () => {
    const { handle } = tab({ backendNodeId: 9, frameId: 'gone' });
    expect(await pointFrameUrl(handle, 1, 1)).toBeUndefined();
  });
});
