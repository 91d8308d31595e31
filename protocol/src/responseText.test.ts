import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResponseFrame } from './frames.js';
import { parseFrame, serializeFrame } from './links.js';
import { parseResponsePayload, responseText, splitResponse } from './responseText.js';

const traced: ResponseFrame = {
  type: 'response',
  id: 'r1',
  sessionId: 's1',
  payload: {
    success: true,
    data: { content: [{ type: 'text', text: 'a "quoted" ,"payload": line\nand ünïcödé 👋' }] },
  },
  hops: [{ hop: 'worker.out', at: 1.5 }],
  timing: { handlerMs: 2, cdpMs: 1 },
};

describe('response layout', () => {
  it('puts the payload last, so a router reads the header and passes the payload on', () => {
    const text = serializeFrame(traced);
    const split = splitResponse(text);
    expect(split?.header).toEqual({
      type: 'response',
      id: 'r1',
      sessionId: 's1',
      hops: traced.hops,
      timing: traced.timing,
      payloadChars: JSON.stringify(traced.payload).length,
    });
    expect(split?.payloadText).toBe(JSON.stringify(traced.payload));
    // Still an ordinary frame for a receiver that parses it whole (an older daemon or server).
    expect(parseFrame(text)).toEqual({ ok: true, frame: traced });
  });

  it('re-addresses a response around the payload text it received', () => {
    const split = splitResponse(serializeFrame(traced));
    if (!split) throw new Error('no split');
    const out = responseText({ ...split.header, id: 'caller-7' }, split.payloadText);
    expect(parseFrame(out)).toEqual({ ok: true, frame: { ...traced, id: 'caller-7' } });
    expect(parseResponsePayload(split.payloadText)).toEqual(traced.payload);
  });

  it('leaves errors and other layouts to the whole-frame parser', () => {
    const error: ResponseFrame = {
      type: 'response',
      id: 'r2',
      sessionId: 's1',
      payload: { success: false, error: { code: 'TIMEOUT', message: 'late' } },
    };
    expect(splitResponse(serializeFrame(error))).toBeUndefined();
    // An older extension's traced frame: payload in the middle, no payloadChars.
    const { type, id, sessionId, payload, hops, timing } = traced;
    expect(splitResponse(JSON.stringify({ type, id, sessionId, payload, hops, timing }))).toBe(
      undefined,
    );
  });

  it('refuses a payload that is not as long as its header says', () => {
    const text = serializeFrame(traced);
    const longer = text.replace('ünïcödé', 'ünïcödé!');
    expect(splitResponse(longer)).toBeUndefined();
  });

  it('cannot be made to disagree with a whole parse by keys smuggled after the payload', () => {
    const payload = '{"success":true,"data":1},"id":"evil"';
    const raw = `{"type":"response","id":"a","sessionId":"s","payloadChars":${payload.length},"payload":${payload}}`;
    expect(splitResponse(raw)?.header.id).toBe('a');
    // The payload alone is no JSON value, so its call fails as malformed instead of going to "evil".
    expect(parseResponsePayload(splitResponse(raw)?.payloadText ?? '')).toBeUndefined();
    agreesWithWholeParse(raw);
  });

  it('never throws, and only splits where the payload is exactly what the header says (fuzzed)', () => {
    const frames = fc
      .record({
        id: fc.string({ minLength: 1, maxLength: 20 }),
        sessionId: fc.string({ maxLength: 20 }),
        data: fc.jsonValue(),
      })
      .map(({ id, sessionId, data }) =>
        serializeFrame({ type: 'response', id, sessionId, payload: { success: true, data } }),
      );
    // Valid frames, and the same frames cut or with a piece of text spliced in.
    const texts = fc.oneof(
      frames,
      fc
        .tuple(frames, fc.nat(), fc.string())
        .map(
          ([text, at, piece]) =>
            text.slice(0, at % text.length) + piece + text.slice(at % text.length),
        ),
      fc.string(),
    );
    fc.assert(
      fc.property(texts, (raw) => {
        const split = splitResponse(raw);
        if (!split) return;
        expect(split.payloadText.length).toBe(split.header.payloadChars);
        expect(raw.endsWith(`${split.payloadText}}`)).toBe(true);
        agreesWithWholeParse(raw);
      }),
      { numRuns: 5_000 },
    );
  });
});

/** Where a split payload parses on its own, the whole frame says the same: same call, same payload. */
function agreesWithWholeParse(raw: string): void {
  const split = splitResponse(raw);
  const payload = split && parseResponsePayload(split.payloadText);
  if (!split || !payload) return;
  const whole = parseFrame(raw);
  expect(whole.ok).toBe(true);
  if (!whole.ok || whole.frame.type !== 'response') return;
  expect(whole.frame.id).toBe(split.header.id);
  expect(whole.frame.sessionId).toBe(split.header.sessionId);
  expect(whole.frame.payload).toEqual(payload);
}
