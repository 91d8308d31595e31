import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { CdpPipe } from './cdpPipe.js';
import { handOffOverPipe, handoffExpression, type PipeHandoff } from './pipeHandoff.js';

const HANDOFF: PipeHandoff = {
  kind: 'launch_handoff',
  pairing: { secret: 'c2VjcmV0', label: 'Launched browser' },
  bridgePort: 41234,
  noBrowserPolicy: true,
  spareTarget: '0123456789ABCDEF0123456789ABCDEF',
};

describe('the expression the worker evaluates', () => {
  it("calls the worker's entry point with the hand-off, as data", async () => {
    const seen: unknown[] = [];
    const scope = { __browserAgentPipeHandoff: (raw: unknown) => (seen.push(raw), true) };
    expect(await runInNewContext(handoffExpression(HANDOFF), scope)).toBe(true);
    expect(seen).toEqual([HANDOFF]);
  });

  it('leaves the call for a worker whose script has not run yet, answered when it takes it', async () => {
    const scope: Record<string, unknown> = {};
    const answer = runInNewContext(handoffExpression(HANDOFF), scope) as Promise<unknown>;
    const waiting = scope['__browserAgentPipeHandoffWaiting'] as {
      handoff: unknown;
      resolve(v: unknown): void;
    };
    expect(waiting.handoff).toEqual(HANDOFF);
    waiting.resolve(true);
    expect(await answer).toBe(true);
  });

  it('carries a label or secret with quotes and script in it as text, running none of it', async () => {
    const hostile: PipeHandoff = {
      ...HANDOFF,
      pairing: { secret: '"); globalThis.ran = 1; ("', label: '`${globalThis.ran = 2}` </script>' },
    };
    const seen: unknown[] = [];
    const scope: Record<string, unknown> = {
      __browserAgentPipeHandoff: (raw: unknown) => (seen.push(raw), true),
    };
    await runInNewContext(handoffExpression(hostile), scope);
    expect(seen).toEqual([hostile]);
    expect(scope['ran']).toBe(undefined);
  });
});

interface Sent {
  method: string;
  params: Record<string, unknown>;
  sessionId: string | undefined;
}

// The answer may be plain or a promise; a throw in it becomes the call's rejection, as on the pipe.
function fakePipe(
  answer: (sent: Sent) => Record<string, unknown> | Promise<Record<string, unknown>>,
): {
  cdp: CdpPipe;
  sent: Sent[];
} {
  const sent: Sent[] = [];
  const cdp = {
    send: (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
      const s = { method, params, sessionId };
      sent.push(s);
      return Promise.resolve(s).then(answer);
    },
  } as unknown as CdpPipe;
  return { cdp, sent };
}

const WORKER = 'AAAABBBBCCCCDDDDEEEEFFFF00001111';

describe('handing the link over the pipe', () => {
  it("evaluates in the worker's own session, then detaches from it", async () => {
    const { cdp, sent } = fakePipe(({ method }) => {
      if (method === 'Target.attachToTarget') return { sessionId: 'S1' };
      if (method === 'Runtime.evaluate') return { result: { type: 'boolean', value: true } };
      return {};
    });
    expect(await handOffOverPipe(cdp, WORKER, HANDOFF, 1_000)).toBe(true);
    expect(sent.map((s) => [s.method, s.sessionId])).toEqual([
      ['Target.attachToTarget', undefined],
      ['Runtime.evaluate', 'S1'],
      ['Target.detachFromTarget', undefined],
    ]);
    expect(sent[0]?.params).toEqual({ targetId: WORKER, flatten: true });
    expect(sent[1]?.params['awaitPromise']).toBe(true);
    expect(sent[2]?.params).toEqual({ sessionId: 'S1' });
  });

  it('is false when the worker refused it (the relay page hands it over then)', async () => {
    const { cdp } = fakePipe(({ method }) =>
      method === 'Target.attachToTarget' ? { sessionId: 'S1' } : { result: { value: false } },
    );
    expect(await handOffOverPipe(cdp, WORKER, HANDOFF, 1_000)).toBe(false);
  });

  it('is false, and evaluates nothing, when the worker cannot be attached', async () => {
    const { cdp, sent } = fakePipe(() => {
      throw new Error('No target with given id found');
    });
    expect(await handOffOverPipe(cdp, WORKER, HANDOFF, 1_000)).toBe(false);
    expect(sent.map((s) => s.method)).toEqual(['Target.attachToTarget']);
  });

  it('gives up after its time when the worker never takes it (an older build), and detaches', async () => {
    const { cdp, sent } = fakePipe(({ method }) =>
      method === 'Target.attachToTarget'
        ? Promise.resolve({ sessionId: 'S1' })
        : method === 'Runtime.evaluate'
          ? new Promise(() => undefined)
          : Promise.resolve({}),
    );
    expect(await handOffOverPipe(cdp, WORKER, HANDOFF, 30)).toBe(false);
    expect(sent.at(-1)?.method).toBe('Target.detachFromTarget');
  });

  it('is false when the evaluate fails (the worker stopped meanwhile)', async () => {
    const { cdp } = fakePipe(({ method }) => {
      if (method === 'Target.attachToTarget') return { sessionId: 'S1' };
      if (method === 'Runtime.evaluate') throw new Error('Target closed');
      return {};
    });
    expect(await handOffOverPipe(cdp, WORKER, HANDOFF, 1_000)).toBe(false);
  });
});
