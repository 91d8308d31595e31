import { describe, expect, it } from 'vitest';
import { renderValue } from './evaluate';
import { handlers } from '../testing/handlers';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';

describe('renderValue', () => {
  it('renders JSON, undefined and values JSON cannot hold', () => {
    expect(renderValue({ type: 'object', value: { a: [1, 'x'] } })).toBe(
      '{\n  "a": [\n    1,\n    "x"\n  ]\n}',
    );
    expect(renderValue({ type: 'undefined' })).toBe('undefined');
    expect(renderValue({ type: 'number', unserializableValue: 'NaN' })).toBe('NaN');
    expect(renderValue({ type: 'bigint', unserializableValue: '12n' })).toBe('12n');
    expect(renderValue({ type: 'string', value: 'hi' })).toBe('"hi"');
    expect(renderValue({ type: 'object', subtype: 'null', value: null })).toBe('null');
  });
});

describe('browser_evaluate', () => {
  it('calls the function, fences the result and caps its size', async () => {
    const cdp = fakeCdp({
      'Runtime.evaluate': () => ({ result: { type: 'string', value: 'y'.repeat(60_000) } }),
    });
    const result = await handlers.browser_evaluate(
      { function: '() => big // note' },
      fakeContext([fakeTab(cdp)]),
    );
    expect(cdp.calls[0]?.params).toMatchObject({
      expression:
        "(() => { const value = (() => big // note\n); return typeof value === 'function' ? value() : value; })()",
      awaitPromise: true,
      serializationOptions: { serialization: 'deep' },
    });
    const part = result.content[0];
    const text = part?.type === 'text' ? part.text : '';
    expect(text).toMatch(
      /^### Result \(untrusted page content\)\n```json\n"y{49999}\n\[… truncated 10002 more characters\]\n```$/,
    );
  });

  it('turns an exception into EVALUATION_FAILED with its text', async () => {
    const cdp = fakeCdp({
      'Runtime.evaluate': () => ({
        result: { type: 'object' },
        exceptionDetails: {
          exceptionId: 1,
          text: 'Uncaught',
          lineNumber: 0,
          columnNumber: 0,
          exception: {
            type: 'object',
            subtype: 'error',
            description: 'TypeError: x is not a function',
          },
        },
      }),
    });
    await expect(
      handlers.browser_evaluate({ function: '() => x()' }, fakeContext([fakeTab(cdp)])),
    ).rejects.toThrow(
      /^The function threw\.\n### Exception \(untrusted page content\)\n```\nTypeError: x is not a function\n```$/,
    );
  });
});
