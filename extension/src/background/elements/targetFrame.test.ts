import { describe, expect, it } from 'vitest';
import type { TabHandle } from '../tabStates';
import { pointFrameUrl, targetFrameUrl } from './targetFrame';

/** What the hit test finds in one session: the node, its frame, the frame it owns if an iframe. */
interface Hit {
  backendNodeId: number;
  frameId: string;
  owns?: string;
}

/**
 * A tab whose top frame holds a same-process frame `inner` and an out-of-process iframe `oopif`
 * at (100, 50), which holds another out-of-process iframe `deep` at (10, 20) of its own viewport.
 */
function tab(hits: Record<string, Hit>) {
  const sent: { method: string; params: unknown; sessionId: string | undefined }[] = [];
  const trees: Record<string, unknown> = {
    top: {
      frame: { id: 'main', url: 'https://shop.test/' },
      childFrames: [{ frame: { id: 'inner', url: 'https://shop.test/widget' } }],
    },
    'oopif-session': { frame: { id: 'oopif', url: 'https://bank.test/pay' } },
    'deep-session': { frame: { id: 'deep', url: 'https://tracker.test/' } },
  };
  const corners: Record<string, [number, number]> = { top: [100, 50], 'oopif-session': [10, 20] };
  const send = (method: string, params: unknown, sessionId?: string) => {
    sent.push({ method, params, sessionId });
    const hit = hits[sessionId ?? 'top'];
    if (method === 'DOM.getNodeForLocation')
      return hit === undefined ? Promise.reject(new Error('no node')) : Promise.resolve({ ...hit });
    if (method === 'DOM.describeNode')
      return Promise.resolve({ node: hit?.owns === undefined ? {} : { frameId: hit.owns } });
    if (method === 'DOM.getBoxModel') {
      const [x, y] = corners[sessionId ?? 'top'] ?? [0, 0];
      return Promise.resolve({
        model: { content: [x, y, x + 300, y, x + 300, y + 150, x, y + 150] },
      });
    }
    if (method === 'Page.getFrameTree')
      return Promise.resolve({ frameTree: trees[sessionId ?? 'top'] });
    return Promise.reject(new Error(method));
  };
  const handle = {
    tabId: 1,
    cdp: { send },
    state: {
      childFrames: new Map([
        ['oopif-session', 'oopif'],
        ['deep-session', 'deep'],
      ]),
    },
  } as unknown as TabHandle;
  return { handle, sent };
}

describe('pointFrameUrl', () => {
  it('is the frame the top frame’s hit test lands in', async () => {
    const { handle, sent } = tab({ top: { backendNodeId: 5, frameId: 'inner' } });
    expect(await pointFrameUrl(handle, 10.4, 20.6)).toBe('https://shop.test/widget');
    expect(sent[0]?.params).toMatchObject({ x: 10, y: 21 });
  });
  it('is the out-of-process iframe’s own document when the point hits its owner element', async () => {
    const { handle, sent } = tab({
      top: { backendNodeId: 9, frameId: 'main', owns: 'oopif' },
      'oopif-session': { backendNodeId: 3, frameId: 'oopif' },
    });
    expect(await pointFrameUrl(handle, 150, 80)).toBe('https://bank.test/pay');
    // Tested again inside, in the iframe's own coordinates.
    const inner = sent.find((s) => s.method === 'DOM.getNodeForLocation' && s.sessionId);
    expect(inner).toMatchObject({ sessionId: 'oopif-session', params: { x: 50, y: 30 } });
  });
  it('follows an out-of-process iframe nested in another down to the innermost', async () => {
    const { handle, sent } = tab({
      top: { backendNodeId: 9, frameId: 'main', owns: 'oopif' },
      'oopif-session': { backendNodeId: 4, frameId: 'oopif', owns: 'deep' },
      'deep-session': { backendNodeId: 2, frameId: 'deep' },
    });
    expect(await pointFrameUrl(handle, 150, 80)).toBe('https://tracker.test/');
    const deep = sent.find(
      (s) => s.method === 'DOM.getNodeForLocation' && s.sessionId === 'deep-session',
    );
    expect(deep?.params).toMatchObject({ x: 40, y: 10 });
  });
  it('is undefined when nothing can be hit', async () => {
    const { handle } = tab({ top: { backendNodeId: 9, frameId: 'gone' } });
    expect(await pointFrameUrl(handle, 1, 1)).toBeUndefined();
  });
});

describe('targetFrameUrl', () => {
  /** A tab on `tabUrl` whose refs e1 (top document) and e2 (same-process iframe) were read. */
  function refTab(top: { url: string; securityOrigin?: string }) {
    const sent: string[] = [];
    const frameTree = {
      frame: { id: 'main', ...top },
      childFrames: [{ frame: { id: 'inner', url: 'https://bank.test/widget' } }],
    };
    const handle = {
      tabId: 1,
      cdp: {
        send: (method: string) => {
          sent.push(method);
          return method === 'Page.getFrameTree'
            ? Promise.resolve({ frameTree })
            : Promise.reject(new Error(method));
        },
      },
      state: {
        mainFrameId: 'main',
        childFrames: new Map(),
        refsByRef: new Map([
          ['e1', { world: { sessionId: undefined, frameId: 'main' } }],
          ['e2', { world: { sessionId: undefined, frameId: 'inner' } }],
          ['e3', { world: { sessionId: undefined, frameId: 'gone' } }],
        ]),
      },
    } as unknown as TabHandle;
    return { handle, sent };
  }

  it('is the tab’s own URL for an element of its top document, without reading the frame tree', async () => {
    const { handle, sent } = refTab({ url: 'https://shop.test/' });
    const url = await targetFrameUrl(handle, { ref: 'e1' }, Promise.resolve('https://shop.test/'));
    expect(url).toBe('https://shop.test/');
    expect(sent).toEqual([]);
  });

  it('is the iframe’s own document for an element inside it, whatever the tab is on', async () => {
    const { handle } = refTab({ url: 'https://shop.test/' });
    expect(await targetFrameUrl(handle, { ref: 'e2' }, Promise.resolve('https://shop.test/'))).toBe(
      'https://bank.test/widget',
    );
  });

  it('asks the frame tree for a top document without an http(s) URL (its opener’s origin)', async () => {
    const { handle, sent } = refTab({ url: 'about:blank', securityOrigin: 'https://bank.test' });
    const url = await targetFrameUrl(handle, { ref: 'e1' }, Promise.resolve('about:blank'));
    expect(url).toBe('https://bank.test/');
    expect(sent).toEqual(['Page.getFrameTree']);
  });

  it('names no frame for a ref of a frame that is gone (the tab’s URL is judged on its own)', async () => {
    const { handle } = refTab({ url: 'https://shop.test/' });
    expect(await targetFrameUrl(handle, { ref: 'e3' }, Promise.resolve('https://shop.test/'))).toBe(
      undefined,
    );
  });
});
