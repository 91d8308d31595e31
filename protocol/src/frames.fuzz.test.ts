import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameSchema } from './frames.js';
import { parseFrame, serializeFrame } from './links.js';

const RUNS = 10_000;

/** Arbitrary frame-shaped objects: right or wrong types, known or unknown fields. */
const frameish = fc.record(
  {
    type: fc.oneof(
      fc.constantFrom(
        'hello',
        'welcome',
        'request',
        'response',
        'event',
        'session_start',
        'session_end',
        'ping',
        'pong',
        'error',
        'register',
        'challenge',
        'auth',
        'pair_start',
        'pair_offer',
        'pair_confirm',
      ),
      fc.string(),
    ),
    id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    sessionId: fc.oneof(fc.string(), fc.constant(undefined)),
    action: fc.string(),
    params: fc.jsonValue(),
    payload: fc.oneof(fc.jsonValue(), fc.record({ success: fc.boolean(), data: fc.jsonValue() })),
    protocolVersion: fc.oneof(fc.integer(), fc.double(), fc.string()),
    t: fc.oneof(fc.double(), fc.string()),
  },
  { requiredKeys: [] },
);

describe('parseFrame under fuzzing', () => {
  it(`never throws on arbitrary text and accepts only schema-valid frames (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          frameish.map((o) => JSON.stringify(o)),
        ),
        (raw) => {
          const result = parseFrame(raw);
          if (result.ok) {
            // Whatever it accepts really is a frame, and survives a round trip unchanged.
            expect(frameSchema.safeParse(result.frame).success).toBe(true);
            expect(parseFrame(serializeFrame(result.frame))).toEqual(result);
          } else {
            expect(result.error.code).toBe('INVALID_FRAME');
            expect(result.error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses truncated frames', () => {
    const full = serializeFrame({
      type: 'request',
      id: 'r1',
      sessionId: 's1',
      action: 'browser_click',
      params: { ref: 'e1' },
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: full.length - 1 }), (cut) => {
        expect(parseFrame(full.slice(0, cut)).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
