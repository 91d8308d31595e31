import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@browser-agent/protocol';
import { clickPoint } from './clickPoint';
import type { ResolvedElement } from './resolveRef';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';
import { caught } from '../testing/caught';

const element = {
  entry: { backendNodeId: 7 },
  objectId: 'obj-1',
  label: 'button "Send" [e4]',
} as unknown as ResolvedElement;

/** An element whose hit tests answer in turn with `answers` (the page's verdicts). */
function page(answers: Record<string, unknown>[]) {
  let test = 0;
  return fakeCdp({
    'DOM.getContentQuads': () => ({ quads: [[10, 10, 50, 10, 50, 30, 10, 30]] }),
    'DOM.scrollIntoViewIfNeeded': () => undefined,
    'Runtime.callFunctionOn': () => ({ result: { type: 'object', value: answers[test++] } }),
  });
}

describe('clickPoint (#26: no scroll round trip for an element the page shows)', () => {
  it('clicks a shown element where it is, with no scroll', async () => {
    const cdp = page([{ x: 30, y: 20 }]);
    expect(await clickPoint(fakeTab(cdp), element)).toEqual({ x: 30, y: 20 });
    expect(cdp.calls.map((c) => c.method)).toEqual([
      'DOM.getContentQuads',
      'Runtime.callFunctionOn',
    ]);
  });

  it('scrolls an element off screen into view and looks again', async () => {
    const cdp = page([{ offscreen: true }, { x: 30, y: 400 }]);
    expect(await clickPoint(fakeTab(cdp), element)).toEqual({ x: 30, y: 400 });
    expect(cdp.calls.map((c) => c.method)).toEqual([
      'DOM.getContentQuads',
      'Runtime.callFunctionOn',
      'DOM.scrollIntoViewIfNeeded',
      'DOM.getContentQuads',
      'Runtime.callFunctionOn',
    ]);
  });

  it('names what covers an element that is still covered after the scroll', async () => {
    const err = await caught(
      clickPoint(
        fakeTab(page([{ blockedBy: 'div#cookie' }, { blockedBy: 'div#cookie' }])),
        element,
      ),
    );
    expect(err.code).toBe(ErrorCode.NOT_VISIBLE);
    expect(err.message).toContain('covered by another element (<div#cookie>)');
  });
});

describe('clickPoint after its look went out with the check (#26: clickPointStep)', () => {
  it('clicks where the look hit, with no round trip', async () => {
    const cdp = page([]);
    expect(await clickPoint(fakeTab(cdp), element, { x: 12, y: 34 })).toEqual({ x: 12, y: 34 });
    expect(cdp.calls).toEqual([]);
  });

  it('looks the CDP way when the look found no clean hit (covered, off screen, in a frame)', async () => {
    for (const first of [{ blockedBy: 'div#cookie' }, { offscreen: true }, null]) {
      const cdp = page([{ x: 30, y: 20 }]);
      expect(await clickPoint(fakeTab(cdp), element, first)).toEqual({ x: 30, y: 20 });
      expect(cdp.calls.map((c) => c.method)).toEqual([
        'DOM.getContentQuads',
        'Runtime.callFunctionOn',
      ]);
    }
  });

  it('does not take a hit from an out-of-process frame, whose coordinates are its own', async () => {
    const framed = { ...element, entry: { ...element.entry, sessionId: 's1' } };
    const cdp = fakeCdp({
      'DOM.getContentQuads': () => ({ quads: [[10, 10, 50, 10, 50, 30, 10, 30]] }),
      'Runtime.callFunctionOn': () => ({ result: { type: 'object', value: { x: 30, y: 20 } } }),
      'DOM.getFrameOwner': () => ({ backendNodeId: 3 }),
    });
    await clickPoint(fakeTab(cdp), framed, { x: 1, y: 2 }).catch(() => undefined);
    expect(cdp.calls.map((c) => c.method)).toContain('DOM.getContentQuads');
  });
});
