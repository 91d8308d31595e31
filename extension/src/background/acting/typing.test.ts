import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@browser-agent/protocol';
import { prepareField } from './typing';
import type { ResolvedElement } from '../elements/resolveRef';
import { fakeCdp } from '../testing/fakeCdp';
import { caught } from '../testing/caught';

const element = {
  entry: { backendNodeId: 7 },
  objectId: 'obj-1',
  label: 'textbox "Name" [e3]',
} as unknown as ResolvedElement;

/** A field whose page-side focus lands (or not); DOM.focus works unless focusFails. */
function field(focusLands: boolean, focusFails = false) {
  return fakeCdp({
    'Runtime.callFunctionOn': (params) => {
      const focused = params.arguments?.[1]?.value === true;
      return {
        result: {
          type: 'object',
          value: focused || focusLands ? { ok: true, password: false } : { unfocused: true },
        },
      };
    },
    'DOM.focus': () => {
      if (focusFails) throw new Error('Element is not focusable');
    },
  });
}

describe('prepareField (#26: focus and check in one round trip)', () => {
  it('focuses in the page and sends no DOM.focus when the focus lands', async () => {
    const cdp = field(true);
    expect(await prepareField(cdp, element, true)).toMatchObject({ ok: true });
    expect(cdp.calls.map((c) => c.method)).toEqual(['Runtime.callFunctionOn']);
  });

  it('falls back to DOM.focus, then prepares the focused field, when the page-side focus did not land', async () => {
    const cdp = field(false);
    expect(await prepareField(cdp, element, true)).toMatchObject({ ok: true });
    expect(cdp.calls.map((c) => c.method)).toEqual([
      'Runtime.callFunctionOn',
      'DOM.focus',
      'Runtime.callFunctionOn',
    ]);
  });

  it('says the element cannot take focus when DOM.focus refuses it too', async () => {
    const err = await caught(prepareField(field(false, true), element, true));
    expect(err.code).toBe(ErrorCode.NOT_EDITABLE);
    expect(err.message).toContain('it cannot take focus');
  });
});

describe('prepareField after its step went out with the check (#26)', () => {
  it('takes the answer the check brought and sends nothing more', async () => {
    const cdp = field(true);
    expect(await prepareField(cdp, element, true, { ok: true, password: true })).toMatchObject({
      ok: true,
      password: true,
    });
    expect(cdp.calls).toEqual([]);
  });

  it('falls back to DOM.focus when the page-side focus did not land', async () => {
    const cdp = field(false);
    expect(await prepareField(cdp, element, true, { unfocused: true })).toMatchObject({ ok: true });
    expect(cdp.calls.map((c) => c.method)).toEqual(['DOM.focus', 'Runtime.callFunctionOn']);
  });

  it('refuses a field the answer says takes no text', async () => {
    const err = await caught(
      prepareField(field(true), element, true, { reason: 'it is an <input type=checkbox>' }),
    );
    expect(err.code).toBe(ErrorCode.NOT_EDITABLE);
    expect(err.message).toContain('<input type=checkbox>');
  });
});
