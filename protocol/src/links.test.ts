import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from './constants.js';
import type { Frame } from './frames.js';
import {
  daemonToExtensionFrameSchema,
  daemonToServerFrameSchema,
  extensionToDaemonFrameSchema,
  parseDaemonToExtension,
  parseDaemonToServer,
  parseExtensionToDaemon,
  parseRelayToWorker,
  parseServerToDaemon,
  parseWorkerToRelay,
  relayToWorkerFrameSchema,
  serializeFrame,
  serverToDaemonFrameSchema,
  workerToRelayFrameSchema,
  type FrameParser,
} from './links.js';

const client = { name: 'c', version: '1' };

/** One frame of every kind (both hellos), as its sender writes it. */
const samples: Record<string, Frame> = {
  serverHello: { type: 'hello', protocolVersion: PROTOCOL_VERSION, role: 'server', client },
  extensionHello: {
    type: 'hello',
    protocolVersion: PROTOCOL_VERSION,
    role: 'extension',
    nonce: 'n',
    pairings: ['p'],
  },
  welcome: { type: 'welcome', protocolVersion: PROTOCOL_VERSION },
  challenge: { type: 'challenge', pairingId: 'p', nonce: 'n', proof: 'x' },
  auth: { type: 'auth', proof: 'x' },
  pairing_required: { type: 'pairing_required' },
  pair_start: { type: 'pair_start', publicKey: 'k' },
  pair_offer: { type: 'pair_offer', publicKey: 'k', pairingId: 'p' },
  pair_confirm: { type: 'pair_confirm', pairingId: 'p', proof: 'x' },
  paired: { type: 'paired', pairingId: 'p' },
  unpair: { type: 'unpair', pairingId: 'p' },
  register: { type: 'register', client, project: '/p' },
  register_ok: { type: 'register_ok', sessionId: 's', resumed: false },
  request: { type: 'request', id: 'r', sessionId: 's', action: 'browser_snapshot', params: {} },
  response: { type: 'response', id: 'r', sessionId: 's', payload: { success: true, data: {} } },
  event: { type: 'event', sessionId: 's', event: 'e', data: null },
  session_start: { type: 'session_start', sessionId: 's', client },
  session_end: { type: 'session_end', sessionId: 's', reason: 'bye' },
  approval_answer: {
    type: 'approval_answer',
    sessionId: 's',
    questionId: 'q',
    allow: true,
    scope: 'site',
  },
  ping: { type: 'ping', t: 1 },
  pong: { type: 'pong', t: 1 },
  error: { type: 'error', error: { code: 'INVALID_FRAME', message: 'm' } },
};

interface LinkCase {
  name: string;
  parse: FrameParser<Frame>;
  schema: { safeParse(data: unknown): { success: boolean } };
  carries: string[];
}

const links: LinkCase[] = [
  {
    name: 'server → daemon',
    parse: parseServerToDaemon,
    schema: serverToDaemonFrameSchema,
    carries: ['serverHello', 'register', 'request', 'approval_answer', 'ping'],
  },
  {
    name: 'daemon → server',
    parse: parseDaemonToServer,
    schema: daemonToServerFrameSchema,
    carries: ['welcome', 'register_ok', 'response', 'event', 'pong', 'error'],
  },
  {
    name: 'extension → daemon',
    parse: parseExtensionToDaemon,
    schema: extensionToDaemonFrameSchema,
    carries: [
      'extensionHello',
      'auth',
      'pair_start',
      'pair_confirm',
      'unpair',
      'response',
      'event',
      'ping',
      'error',
    ],
  },
  {
    name: 'daemon → extension',
    parse: parseDaemonToExtension,
    schema: daemonToExtensionFrameSchema,
    carries: [
      'challenge',
      'pairing_required',
      'pair_offer',
      'paired',
      'welcome',
      'request',
      'session_start',
      'session_end',
      'approval_answer',
      'pong',
      'error',
    ],
  },
  {
    name: 'relay → worker',
    parse: parseRelayToWorker,
    schema: relayToWorkerFrameSchema,
    carries: ['request', 'session_start', 'session_end', 'approval_answer', 'ping'],
  },
  {
    name: 'worker → relay',
    parse: parseWorkerToRelay,
    schema: workerToRelayFrameSchema,
    carries: ['response', 'event', 'pong'],
  },
];

describe.each(links)('the $name parser', ({ parse, schema, carries }) => {
  it('reads every frame its link carries, unchanged', () => {
    for (const name of carries) {
      const frame = samples[name];
      expect(parse(serializeFrame(frame as Frame)), name).toEqual({ ok: true, frame });
    }
  });

  it('refuses every frame sent the wrong way, naming the frame and the link', () => {
    const wrongWay = Object.keys(samples).filter((name) => !carries.includes(name));
    expect(wrongWay.length).toBeGreaterThan(0);
    for (const name of wrongWay) {
      const frame = samples[name] as Frame;
      const parsed = parse(serializeFrame(frame));
      expect(parsed.ok, name).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.error.code).toBe('INVALID_FRAME');
      // The other side's hello, on a link that carries hellos, is refused by its role.
      const carriesHello = carries.some((n) => samples[n]?.type === 'hello');
      if (frame.type === 'hello' && carriesHello) expect(parsed.error.message).toContain('role');
      else expect(parsed.error.message).toMatch(`A ${frame.type} frame is not sent from `);
    }
  });

  it('never throws, and accepts only its own link’s frames (fuzzed)', () => {
    const types = Object.values(samples).map((f) => f.type);
    const frameish = fc.record(
      {
        type: fc.oneof(fc.constantFrom(...types), fc.string()),
        role: fc.constantFrom('server', 'extension', 'x'),
        protocolVersion: fc.oneof(fc.integer(), fc.string()),
        id: fc.oneof(fc.string(), fc.integer()),
        sessionId: fc.string(),
        action: fc.string(),
        params: fc.jsonValue(),
        payload: fc.record({ success: fc.boolean(), data: fc.jsonValue() }),
        t: fc.oneof(fc.double(), fc.string()),
        proof: fc.string(),
        client: fc.constant(client),
        reason: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          frameish.map((o) => JSON.stringify(o)),
        ),
        (raw) => {
          const result = parse(raw);
          if (result.ok) {
            expect(schema.safeParse(result.frame).success).toBe(true);
            expect(parse(serializeFrame(result.frame))).toEqual(result);
          } else {
            expect(result.error.code).toBe('INVALID_FRAME');
            expect(result.error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
