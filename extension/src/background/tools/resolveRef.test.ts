import { describe, expect, it } from 'vitest';
import type { AXNode } from './axNode';
import { resolveRef } from './resolveRef';
import { axTree } from './testing/axTree';
import { fakeCdp, type CdpScript } from './testing/fakeCdp';
import { fakeTab } from './testing/fakeContext';

const FRESH_REFS = 'Call browser_snapshot to get fresh refs.';

/** A tab that knows e4 as button "Save" (backend node 40), over a page scripted by `page`. */
function tabWithRef(page: { exists?: boolean; connected?: boolean; ax?: AXNode[] | 'error' }) {
  const script: CdpScript = {
    'DOM.resolveNode': () => {
      if (page.exists === false) throw new Error('No node with given id found');
      return { object: { type: 'object', subtype: 'node', objectId: 'obj-40' } };
    },
    'Runtime.callFunctionOn': () => ({
      result: { type: 'boolean', value: page.connected ?? true },
    }),
    'Accessibility.getPartialAXTree': () => {
      if (page.ax === 'error') throw new Error('Could not compute');
      return { nodes: page.ax ?? axTree({ role: 'button', name: 'Save', backendId: 40 }) };
    },
    'Runtime.releaseObject': () => undefined,
  };
  const cdp = fakeCdp(script);
  const tab = fakeTab(cdp);
  const entry = { ref: 'e4', backendNodeId: 40, role: 'button', name: 'Save', generation: 1 };
  tab.state.refsByRef.set('e4', entry);
  tab.state.refsByBackendId.set(40, entry);
  return { tab, cdp };
}

describe('resolveRef', () => {
  it('resolves a ref whose element is still the one the snapshot showed', async () => {
    const { tab } = tabWithRef({});
    const element = await resolveRef(tab, 'e4');
    expect(element.objectId).toBe('obj-40');
    expect(element.label).toBe('button "Save" [ref=e4]');
  });

  it('calls an unknown ref stale and a malformed one invalid', async () => {
    const { tab, cdp } = tabWithRef({});
    await expect(resolveRef(tab, 'e99')).rejects.toMatchObject({
      code: 'STALE_REF',
      hint: FRESH_REFS,
    });
    await expect(resolveRef(tab, 'Save button')).rejects.toMatchObject({ code: 'INVALID_ARGS' });
    expect(cdp.calls).toEqual([]);
  });

  it('calls a ref stale when its node is gone or detached', async () => {
    await expect(resolveRef(tabWithRef({ exists: false }).tab, 'e4')).rejects.toMatchObject({
      code: 'STALE_REF',
      message: 'Ref e4 (button "Save" [ref=e4]) is stale: the element is gone from the page.',
      hint: FRESH_REFS,
    });
    await expect(resolveRef(tabWithRef({ connected: false }).tab, 'e4')).rejects.toMatchObject({
      code: 'STALE_REF',
      message: 'Ref e4 (button "Save" [ref=e4]) is stale: the element was removed from the page.',
    });
  });

  it('calls a ref stale when the same node now has another role or name', async () => {
    const renamed = tabWithRef({ ax: axTree({ role: 'button', name: 'Delete', backendId: 40 }) });
    await expect(resolveRef(renamed.tab, 'e4')).rejects.toMatchObject({
      code: 'STALE_REF',
      message: 'Ref e4 (button "Save" [ref=e4]) is stale: the element is now button "Delete".',
    });
    const reroled = tabWithRef({ ax: axTree({ role: 'link', name: 'Save', backendId: 40 }) });
    await expect(resolveRef(reroled.tab, 'e4')).rejects.toMatchObject({ code: 'STALE_REF' });
    // The handle made while checking is released, not leaked.
    expect(renamed.cdp.calls.map((c) => c.method)).toContain('Runtime.releaseObject');
  });

  it('reports an element that left the accessibility tree as not visible', async () => {
    const hidden = tabWithRef({ ax: axTree({ role: 'none', ignored: true, backendId: 40 }) });
    await expect(resolveRef(hidden.tab, 'e4')).rejects.toMatchObject({ code: 'NOT_VISIBLE' });
  });
});
