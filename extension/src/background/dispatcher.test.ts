import { describe, expect, it } from 'vitest';
import { textResult, type RequestFrame, type ResponseFrame } from '@browser-agent/protocol';
import { timedClient, BusyClock } from './busyClock';
import type { CdpClient } from './cdp';
import { Dispatcher, type SectionStep } from './dispatcher';
import type { HandlerContext, HandlerRegistry } from './handlerContext';
import { fakeContext } from './testing/fakeContext';
import { waitFor } from './tools/waitFor';

function request(id: string, params: unknown, action = 'browser_wait_for'): RequestFrame {
  return { type: 'request', id, sessionId: 's1', action, params, timeoutMs: 60_000 };
}

/** One call, rendered as the worker sends it. */
function dispatch(d: Dispatcher, frame: RequestFrame): Promise<ResponseFrame> {
  return d.call(frame).then((pending) => pending.render());
}

function dispatcher(): Dispatcher {
  const handlers = {
    browser_wait_for: waitFor,
    browser_evaluate: () => Promise.resolve(textResult('evaluated')),
  } as unknown as HandlerRegistry;
  return new Dispatcher(handlers, (_sessionId, _clock, signal): Promise<HandlerContext> =>
    Promise.resolve({ ...fakeContext([]), signal }),
  );
}

describe('Dispatcher.cancelSession and inTurn', () => {
  it('cancels the running and the queued calls of one session only, with the hint', async () => {
    const d = dispatcher();
    const running = dispatch(d, request('r1', { time: 10 }));
    const queued = dispatch(d, request('r2', { time: 10 }));
    const other = dispatch(d, { ...request('r3', { time: 0.05 }), sessionId: 's2' });
    await new Promise((r) => setTimeout(r, 20));
    d.cancelSession('s1', 'the user stopped every agent', 'Wait for the user.');
    for (const call of [running, queued])
      expect((await call).payload).toMatchObject({
        success: false,
        error: { code: 'CANCELLED', hint: 'Wait for the user.' },
      });
    expect((await other).payload.success).toBe(true);
  });

  it('runs work in the session turn: after the calls queued before it, before the ones after', async () => {
    const d = dispatcher();
    const order: string[] = [];
    const first = dispatch(d, request('r1', { time: 0.05 })).then(() => order.push('r1'));
    d.inTurn('s1', async () => {
      await new Promise((r) => setTimeout(r, 30));
      order.push('work');
    });
    const second = dispatch(d, request('r2', { time: 0 })).then(() => order.push('r2'));
    await Promise.all([first, second]);
    expect(order).toEqual(['r1', 'work', 'r2']);
  });
});

describe('Dispatcher cancellation', () => {
  it('answers a cancelled wait at once and runs the session next call', async () => {
    const d = dispatcher();
    const wait = dispatch(d, request('r1', { time: 10 }));
    const next = dispatch(d, request('r2', { function: '() => 1' }, 'browser_evaluate'));
    await new Promise((r) => setTimeout(r, 20));
    const startedAt = Date.now();
    d.cancel('r1', 'cancelled by the MCP client');
    const cancelled = await wait;
    expect(cancelled.payload).toMatchObject({ success: false, error: { code: 'CANCELLED' } });
    expect((await next).payload).toMatchObject({ success: true });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('never starts a call cancelled while it was queued', async () => {
    const d = dispatcher();
    const first = dispatch(d, request('r1', { time: 0.05 }));
    const queued = dispatch(d, request('r2', { time: 10 }));
    d.cancel('r2', 'gone');
    expect((await first).payload.success).toBe(true);
    expect((await queued).payload).toMatchObject({ error: { code: 'CANCELLED' } });
  });
});

describe('Dispatcher.keep (issue #25: what runs after the handler belongs to the call)', () => {
  it('lets a cancel or "Stop all" reach the call after its handler returned, until end()', async () => {
    const d = dispatcher();
    const kept = d.keep(request('r1', { time: 0 }));
    expect((await dispatch(d, request('r1', { time: 0 }))).payload.success).toBe(true);
    d.cancel('r1', 'the client cancelled');
    expect(kept.signal.aborted).toBe(true);

    const bySession = d.keep(request('r2', { time: 0 }));
    await dispatch(d, request('r2', { time: 0 }));
    d.cancelSession('s1', 'the session ended');
    expect(bySession.signal.aborted).toBe(true);

    // Once the caller is done, a late cancel finds nothing.
    const ended = d.keep(request('r3', { time: 0 }));
    await dispatch(d, request('r3', { time: 0 }));
    ended.end();
    d.cancel('r3', 'too late');
    expect(ended.signal.aborted).toBe(false);
  });
});

describe('Dispatcher: a handler its answer left behind', () => {
  it('finds its signal aborted once the call is answered, so it cannot act later', async () => {
    // As raceDialogs does: the call is answered DIALOG_OPEN while the handler still waits on
    // the page; when the dialog closes the handler wakes up and would click.
    let woke: { aborted: boolean; reason: unknown } | undefined;
    const handlers = {
      browser_click: (_args: unknown, ctx: HandlerContext) => {
        const work = new Promise((r) => setTimeout(r, 40)).then(() => {
          woke = { aborted: ctx.signal?.aborted === true, reason: ctx.signal?.reason };
        });
        void work;
        return new Promise((_r, reject) =>
          setTimeout(() => reject(new Error('DIALOG_OPEN: answered early')), 5),
        );
      },
    } as unknown as HandlerRegistry;
    const d = new Dispatcher(handlers, (_s, _c, signal) =>
      Promise.resolve({ ...fakeContext([]), signal }),
    );
    const answer = await dispatch(d, request('c1', { ref: 'e1' }, 'browser_click'));
    expect(answer.payload.success).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    expect(woke?.aborted).toBe(true);
    expect(String((woke?.reason as Error).message)).toContain('answered already');
  });
});

describe('timedClient with a signal', () => {
  it('fails commands in flight and sends none after the abort', async () => {
    const sent: string[] = [];
    const cdp: CdpClient = {
      send: (method) => {
        sent.push(method);
        return new Promise(() => undefined);
      },
      on: () => () => undefined,
    };
    const controller = new AbortController();
    const client = timedClient(cdp, new BusyClock(), controller.signal);
    const pending = client.send('Runtime.enable');
    controller.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
    await expect(client.send('Page.enable')).rejects.toThrow('cancelled');
    expect(sent).toEqual(['Runtime.enable']);
  });
});

describe('Dispatcher section steps', () => {
  it("leave the worker's own tool runs out: what is new stays for the agent's next result", async () => {
    let unreported = 3;
    const handlers = {
      browser_take_screenshot: () => Promise.resolve(textResult('captured')),
      browser_snapshot: () => Promise.resolve(textResult('snapshot')),
    } as unknown as HandlerRegistry;
    const newEntries: SectionStep = (_contract, _ctx, response) => {
      if (unreported > 0) response.addText(`${unreported} new console entries`);
      unreported = 0;
      return Promise.resolve();
    };
    const d = new Dispatcher(
      handlers,
      (_s, _c, signal) => Promise.resolve({ ...fakeContext([]), signal }),
      undefined,
      [newEntries],
    );
    const ctx = fakeContext([]);
    const capture = await d.invokeOwnTool('browser_take_screenshot', {}, ctx);
    expect(JSON.stringify(capture)).not.toContain('new console entries');
    const agents = await dispatch(d, request('s1', {}, 'browser_snapshot'));
    expect(JSON.stringify(agents.payload)).toContain('3 new console entries');
    unreported = 1;
    const batchStep = await d.invokeTool('browser_snapshot', {}, ctx);
    expect(JSON.stringify(batchStep)).toContain('1 new console entries');
  });
});
