import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastRequestFrame, fastResponseHeader } from './fastFrames.js';
import { requestFrameSchema, responseHeaderSchema } from './frames.js';

const RUNS = 20_000;

/** Strings around the length limits, numbers of every kind JSON can carry. */
const str = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.string({ minLength: 98, maxLength: 102 }),
  fc.string({ minLength: 38, maxLength: 42 }),
);
const num = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 1.5, 2 ** 53, 2 ** 53 - 1, 1e300),
);
const anyValue = fc.oneof(str, num, fc.boolean(), fc.constant(null), fc.jsonValue());
const hop = fc.record(
  { hop: fc.oneof(str, num), at: fc.oneof(num, str), extra: anyValue },
  { requiredKeys: [] },
);
const hops = fc.oneof(fc.array(hop, { maxLength: 34 }), anyValue);
const timing = fc.oneof(
  fc.record(
    { handlerMs: fc.oneof(num, str), cdpMs: fc.oneof(num, str), extra: anyValue },
    { requiredKeys: [] },
  ),
  anyValue,
);

const requestish = fc.record(
  {
    type: fc.constantFrom('request', 'response', 'x'),
    id: fc.oneof(str, num),
    sessionId: fc.oneof(str, num),
    action: fc.oneof(str, num),
    params: anyValue,
    timeoutMs: fc.oneof(num, str),
    hops,
    extra: anyValue,
  },
  { requiredKeys: [] },
);

const headerish = fc.record(
  {
    type: fc.constantFrom('response', 'request'),
    id: fc.oneof(str, num),
    sessionId: fc.oneof(str, num),
    payloadChars: fc.oneof(num, str),
    hops,
    timing,
    extra: anyValue,
  },
  { requiredKeys: [] },
);

/** JSON text round trip: the checks only ever see what JSON.parse returns. */
function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

describe('hand-written frame checks agree with the zod schemas', () => {
  it(`request frames (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(requestish.map(viaJson), (json) => {
        const zod = requestFrameSchema.safeParse(json);
        const fast = fastRequestFrame(json);
        if (fast === undefined) expect(zod.success).toBe(false);
        else expect(fast).toStrictEqual(zod.data);
      }),
      { numRuns: RUNS },
    );
  });

  it(`response headers (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(headerish.map(viaJson), (json) => {
        const zod = responseHeaderSchema.safeParse(json);
        const fast = fastResponseHeader(json);
        if (fast === undefined) expect(zod.success).toBe(false);
        else expect(fast).toStrictEqual(zod.data);
      }),
      { numRuns: RUNS },
    );
  });

  it('accept the frames the bridge sends', () => {
    const request = {
      type: 'request',
      id: 'a',
      sessionId: 's',
      action: 'browser_evaluate',
      params: { function: '() => 1' },
      timeoutMs: 30_000,
      hops: [{ hop: 'server.out', at: 1.5 }],
    };
    expect(fastRequestFrame(request)).toStrictEqual(requestFrameSchema.parse(request));
    const header = {
      type: 'response',
      id: 'a',
      sessionId: 's',
      hops: [{ hop: 'worker.out', at: 2 }],
      timing: { handlerMs: 1, cdpMs: 0.5 },
      payloadChars: 12,
    };
    expect(fastResponseHeader(header)).toStrictEqual(responseHeaderSchema.parse(header));
  });
});
