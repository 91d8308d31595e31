import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeFrame, splitResponse } from '@browser-agent/protocol';
import { splitResponseBytes } from './responseBytes.js';

const frames = fc
  .record({ id: fc.string({ minLength: 1, maxLength: 20 }), data: fc.jsonValue() })
  .map(({ id, data }) =>
    serializeFrame({ type: 'response', id, sessionId: 's', payload: { success: true, data } }),
  );

describe('splitResponseBytes', () => {
  it('cuts the same header and payload from the bytes as the text version does (fuzzed)', () => {
    const texts = fc.oneof(
      frames,
      fc.tuple(frames, fc.nat(), fc.string()).map(([text, at, piece]) => {
        const i = at % text.length;
        return text.slice(0, i) + piece + text.slice(i);
      }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const bytes = splitResponseBytes(Buffer.from(text));
        const split = splitResponse(text);
        // The bytes version cannot count UTF-16 units, so it may accept a wrong length that the
        // server then refuses; it never cuts at another place.
        if (split) expect(bytes?.header).toEqual(split.header);
        if (split) expect(bytes?.payload.toString('utf8')).toBe(split.payloadText);
        if (bytes) expect(text.endsWith(`${bytes.payload.toString('utf8')}}`)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses a payload with a raw newline, which would end the line to the server early', () => {
    const payload = '{"success":true,"data":\n{"content":[]}}';
    const text = `{"type":"response","id":"r","sessionId":"s","payloadChars":${payload.length},"payload":${payload}}`;
    expect(splitResponse(text)).toBeDefined();
    expect(splitResponseBytes(Buffer.from(text))).toBeUndefined();
  });
});
