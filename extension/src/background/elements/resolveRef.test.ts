import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@browser-agent/protocol';
import { releaseElement, resolveEntry, resolveModelEntry } from './resolveRef';
import type { RefEntry } from '../tabStates';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';
import { caught } from '../testing/caught';

const entry: RefEntry = {
  ref: 'e3',
  world: { frameId: 'main', contextId: 5 },
  localId: 3,
  role: 'textbox',
  name: 'Name',
  generation: 1,
} as RefEntry;

/** A page whose model says the element is `role "name"` and shown. */
function page(role: string) {
  return fakeCdp({
    'Runtime.evaluate': (params) =>
      params.expression.endsWith('.check(3)')
        ? { result: { type: 'object', value: { state: 'shown', role, name: 'Name' } } }
        : { result: { type: 'object', objectId: 'model-obj' } },
    'DOM.describeNode': () => ({ node: { backendNodeId: 9 } }) as never,
    'DOM.resolveNode': () => ({ object: { type: 'object', objectId: 'main-obj' } }),
    'Runtime.releaseObject': () => undefined,
  });
}

const released = (cdp: ReturnType<typeof page>): unknown[] =>
  cdp.calls
    .filter((c) => c.method === 'Runtime.releaseObject')
    .map((c) => (c.params as { objectId: string }).objectId);

describe('resolveEntry (#26: no release queued ahead of the action)', () => {
  it("keeps the page model's handle until the element is released, then frees both", async () => {
    const cdp = page('textbox');
    const tab = fakeTab(cdp);
    const element = await resolveEntry(tab, entry);
    expect(element.objectId).toBe('main-obj');
    expect(released(cdp)).toEqual([]);
    releaseElement(tab, element);
    expect(released(cdp)).toEqual(['main-obj', 'model-obj']);
  });

  it("frees the page model's handle at once when the ref is stale", async () => {
    const cdp = page('button');
    const err = await caught(resolveEntry(fakeTab(cdp), entry));
    expect(err.code).toBe(ErrorCode.STALE_REF);
    expect(released(cdp)).toEqual(['model-obj']);
  });
});

describe('resolveModelEntry (#26: two round trips fewer for click and type)', () => {
  it("checks the element and hands out the page model's handle, with no DOM lookups", async () => {
    const cdp = page('textbox');
    const tab = fakeTab(cdp);
    const element = await resolveModelEntry(tab, entry);
    expect(element.objectId).toBe('model-obj');
    expect(cdp.calls.map((c) => c.method)).toEqual(['Runtime.evaluate', 'Runtime.evaluate']);
    releaseElement(tab, element);
    expect(released(cdp)).toEqual(['model-obj']);
  });

  it('refuses a stale ref as resolveEntry does, and frees the handle', async () => {
    const cdp = page('button');
    const err = await caught(resolveModelEntry(fakeTab(cdp), entry));
    expect(err.code).toBe(ErrorCode.STALE_REF);
    expect(err.message).toContain('the element is now button "Name"');
    expect(released(cdp)).toEqual(['model-obj']);
  });
});
