import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@browser-agent/protocol';
import { releaseElement, resolveEntry, resolveModelEntry, stepOnEntry } from './resolveRef';
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

describe('resolveModelEntry with a first step (#26: the step goes out with the check)', () => {
  /** A page whose model runs the step and answers `answer` for the checkThen call. */
  function stepped(answer: unknown) {
    return fakeCdp({
      'Runtime.evaluate': (params) =>
        params.expression.includes('.checkThen(')
          ? { result: { type: 'object', value: answer } }
          : { result: { type: 'object', objectId: 'model-obj' } },
      'Runtime.releaseObject': () => undefined,
    });
  }
  const first = { fn: 'function (a) { return a; }', args: [true, 'x'] };

  it("sends the step in the check's call and hands out what it returned", async () => {
    const cdp = stepped({
      check: { state: 'shown', role: 'textbox', name: 'Name' },
      value: 42,
    });
    const element = await resolveModelEntry(fakeTab(cdp), entry, first);
    expect(element.firstValue).toBe(42);
    expect(cdp.calls.map((c) => c.method)).toEqual(['Runtime.evaluate', 'Runtime.evaluate']);
    const call = (cdp.calls[0]?.params as { expression: string }).expression;
    expect(call).toContain(
      '.checkThen(3, "textbox", "Name", function (a) { return a; }, [true,"x"])',
    );
  });

  it("quotes the page's role and name as JSON strings, so a name cannot write code", async () => {
    const hostile = { ...entry, name: 'a"), alert(1), ("\\' };
    const cdp = stepped({
      check: { state: 'shown', role: 'textbox', name: hostile.name },
    });
    await resolveModelEntry(fakeTab(cdp), hostile, first);
    const call = (cdp.calls[0]?.params as { expression: string }).expression;
    expect(call).toContain(`, ${JSON.stringify(hostile.name)}, function`);
  });

  it('refuses a stale or hidden element as before, and frees the handle', async () => {
    const stale = stepped({ check: { state: 'shown', role: 'button', name: 'Name' } });
    expect((await caught(resolveModelEntry(fakeTab(stale), entry, first))).code).toBe(
      ErrorCode.STALE_REF,
    );
    expect(released(stale)).toEqual(['model-obj']);
    const hidden = stepped({
      check: { state: 'hidden', role: 'textbox', name: 'Name' },
    });
    expect((await caught(resolveModelEntry(fakeTab(hidden), entry, first))).code).toBe(
      ErrorCode.NOT_VISIBLE,
    );
  });
});

describe('stepOnEntry (#26: a one-step tool needs no handle on the element)', () => {
  const step = { fn: 'function (v) { return v; }', args: [['Pro']] };
  const answering = (answer: unknown) =>
    fakeCdp({ 'Runtime.evaluate': () => ({ result: { type: 'object', value: answer } }) });

  it('checks and runs the step in one call, with no handle to take or free', async () => {
    const cdp = answering({ check: { state: 'shown', role: 'textbox', name: 'Name' }, value: 7 });
    expect(await stepOnEntry(fakeTab(cdp), entry, step)).toBe(7);
    expect(cdp.calls.map((c) => c.method)).toEqual(['Runtime.evaluate']);
    const call = (cdp.calls[0]?.params as { expression: string }).expression;
    expect(call).toContain(
      '.checkThen(3, "textbox", "Name", function (v) { return v; }, [["Pro"]])',
    );
  });

  it('refuses a renamed, hidden or vanished element, whose step the page model never ran', async () => {
    const renamed = answering({ check: { state: 'shown', role: 'textbox', name: 'Other' } });
    expect((await caught(stepOnEntry(fakeTab(renamed), entry, step))).code).toBe(
      ErrorCode.STALE_REF,
    );
    const hidden = answering({ check: { state: 'hidden', role: 'textbox', name: 'Name' } });
    expect((await caught(stepOnEntry(fakeTab(hidden), entry, step))).code).toBe(
      ErrorCode.NOT_VISIBLE,
    );
    const navigated = fakeCdp({
      'Runtime.evaluate': () => {
        throw new Error('Cannot find context with specified id');
      },
    });
    expect((await caught(stepOnEntry(fakeTab(navigated), entry, step))).code).toBe(
      ErrorCode.STALE_REF,
    );
  });
});
