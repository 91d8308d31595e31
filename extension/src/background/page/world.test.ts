import { describe, expect, it } from 'vitest';
import { callModel, elementObject } from './world';
import { MODEL_MISSING } from './pageScript';
import { fakeCdp } from '../testing/fakeCdp';

/** A world that holds the model once a whole model script ran in it (until `replace`). */
function world() {
  let installed = false;
  const cdp = fakeCdp({
    'Runtime.evaluate': (params) => {
      const whole = params.expression.length > 5_000;
      if (whole) installed = true;
      else if (!installed) return { result: { type: 'string', value: MODEL_MISSING } };
      return params.expression.endsWith('.element(3)')
        ? { result: { type: 'object', objectId: 'el-3' } }
        : { result: { type: 'number', value: 42 } };
    },
  });
  const sizes = (): number[] =>
    cdp.calls.map((c) => (c.params as { expression: string }).expression.length);
  const state = { modelWorlds: new Map<string, number>() };
  return {
    cdp,
    // A call's client is a wrapper of its own (busyClock.ts): what is known lives in the tab's state.
    target: () => ({ cdp: { send: cdp.send.bind(cdp), on: cdp.on.bind(cdp) }, state }),
    sizes,
    replace: () => {
      installed = false;
    },
  };
}

const address = { sessionId: undefined, frameId: 'main', contextId: 7 };

describe('page model calls (#26: the ~19 KB model script sent once per world)', () => {
  it('sends the whole script to a new world, then calls the installed model by name', async () => {
    const page = world();
    expect(await callModel(page.target(), address, 'check(3)')).toBe(42);
    expect(await callModel(page.target(), address, 'check(3)')).toBe(42);
    expect(await elementObject(page.target(), address, 3)).toBe('el-3');
    const [first, ...later] = page.sizes();
    expect(first).toBeGreaterThan(5_000);
    expect(later).toHaveLength(2);
    for (const size of later) expect(size).toBeLessThan(300);
  });

  it('sends the whole script again to a world that no longer holds the model', async () => {
    const page = world();
    await callModel(page.target(), address, 'check(3)');
    page.replace();
    expect(await elementObject(page.target(), address, 3)).toBe('el-3');
    expect(page.sizes().map((s) => s > 5_000)).toEqual([true, false, true]);
  });

  it('keeps worlds of other contexts apart', async () => {
    const page = world();
    await callModel(page.target(), address, 'check(3)');
    await callModel(page.target(), { ...address, contextId: 8 }, 'check(3)');
    expect(page.sizes().map((s) => s > 5_000)).toEqual([true, true]);
  });
});
