import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestFrame } from '@browser-agent/protocol';
import { CallResponse } from '../callResponse';
import type { PendingResponse } from '../dispatcher';
import type { ArrivalTab } from '../handlerContext';
import type { SessionRecord } from '../sessionStore';
import { CallRunner, type CallRunnerDeps } from './callRunner';

const TAB = 7;

function request(id: string, action = 'browser_evaluate', params: unknown = {}): RequestFrame {
  return { type: 'request', id, sessionId: 's1', action, params };
}

/** A runner whose dispatcher holds each call until the test answers it. */
function heldCalls() {
  const guardedWhy: (string | undefined)[] = [];
  const record = { sessionId: 's1', client: { name: 'test' }, currentTabId: TAB, tabIds: [TAB] };
  const arrivals: (ArrivalTab | undefined)[] = [];
  const answers: (() => void)[] = [];
  const pendingOf = (frame: RequestFrame): PendingResponse => ({
    response: new CallResponse(),
    render: () => ({
      type: 'response',
      id: frame.id,
      sessionId: frame.sessionId,
      payload: { success: true, data: {} },
    }),
  });
  const deps = {
    store: { get: () => Promise.resolve(record as unknown as SessionRecord) },
    activity: {
      started: () => ({ startedAt: Date.now() }),
      finished: () => undefined,
    },
    panels: { broadcast: () => undefined },
    dispatcher: {
      keep: () => ({ signal: new AbortController().signal, end: () => undefined }),
      call: (frame: RequestFrame, arrival?: ArrivalTab) => {
        arrivals.push(arrival);
        return new Promise<PendingResponse>((resolve) =>
          answers.push(() => resolve(pendingOf(frame))),
        );
      },
    },
    permissions: {
      gate: {
        callStarted: () => 0,
        callEnded: () => undefined,
        // Autonomous mode with bank.test on the sensitive list.
        modeOf: () => Promise.resolve('autonomous'),
        irreversibleGate: (_record: unknown, url: string | undefined) =>
          Promise.resolve(url?.startsWith('https://bank.test/') ? 'sensitive' : undefined),
        allowedOnce: () => false,
      },
      guards: {
        guardCall: (call: { why: string | undefined }, work: () => Promise<PendingResponse>) => {
          guardedWhy.push(call.why);
          return work();
        },
      },
    },
    blocked: { since: () => [] },
    recorder: { records: () => false },
    tabStates: { typedSecrets: () => [] },
    sessionsChanged: () => undefined,
  } as unknown as CallRunnerDeps;
  return { runner: new CallRunner(deps), arrivals, answers, guardedWhy };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CallRunner: the tab a call arrived on', () => {
  it('hands the gate the lookup of a call that arrived alone, and none to one queued behind it', async () => {
    vi.stubGlobal('chrome', {
      tabs: { get: (tabId: number) => Promise.resolve({ id: tabId, url: 'https://shop.test/' }) },
      storage: { local: { get: () => Promise.resolve({}) } },
    });
    const { runner, arrivals, answers } = heldCalls();
    const replies: string[] = [];
    const first = runner.run(request('a'), (f) => replies.push(f.type));
    await vi.waitFor(() => expect(arrivals).toHaveLength(1));
    // The second arrives while the first runs: the first may still change what the tab shows.
    const second = runner.run(request('b'), (f) => replies.push(f.type));
    await vi.waitFor(() => expect(arrivals).toHaveLength(2));
    expect(arrivals[0]?.tabId).toBe(TAB);
    expect(await arrivals[0]?.url).toBe('https://shop.test/');
    expect(arrivals[1]).toBe(undefined);
    answers[0]?.();
    answers[1]?.();
    await Promise.all([first, second]);
    expect(replies).toEqual(['response', 'response']);
    // Alone again once both are answered.
    const third = runner.run(request('c'), () => undefined);
    await vi.waitFor(() => expect(arrivals).toHaveLength(3));
    expect(arrivals[2]?.tabId).toBe(TAB);
    answers[2]?.();
    await third;
  });
});

describe('CallRunner: a call that only reads', () => {
  /** chrome.tabs.get answers only when the test says so, with the URL it gives. */
  function slowChrome() {
    let name: (url: string) => void = () => undefined;
    const named = new Promise<string>((resolve) => (name = resolve));
    vi.stubGlobal('chrome', {
      tabs: { get: (tabId: number) => named.then((url) => ({ id: tabId, url })) },
      storage: { local: { get: () => Promise.resolve({}) } },
    });
    return (url: string) => name(url);
  }

  it('starts before Chrome names its tab; a call that acts waits for the name', async () => {
    const name = slowChrome();
    const { runner, arrivals, answers, guardedWhy } = heldCalls();
    const read = runner.run(request('r', 'browser_snapshot'), () => undefined);
    await vi.waitFor(() => expect(arrivals).toHaveLength(1));
    answers[0]?.();
    await read;
    // Answered before Chrome named the tab: nothing was armed.
    expect(guardedWhy).toEqual([]);
    const act = runner.run(request('a'), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(arrivals).toHaveLength(1);
    name('https://shop.test/');
    await vi.waitFor(() => expect(arrivals).toHaveLength(2));
    answers[1]?.();
    await act;
    expect(guardedWhy).toEqual([]);
  });

  it('arms the guards once Chrome names a sensitive tab while the call runs', async () => {
    const name = slowChrome();
    const { runner, arrivals, answers, guardedWhy } = heldCalls();
    const replies: string[] = [];
    const list = runner.run(request('l', 'browser_tabs', { action: 'list' }), (f) =>
      replies.push(f.type === 'response' ? f.id : f.type),
    );
    await vi.waitFor(() => expect(arrivals).toHaveLength(1));
    name('https://bank.test/account');
    await vi.waitFor(() => expect(guardedWhy).toEqual(['sensitive']));
    expect(replies).toEqual([]);
    answers[0]?.();
    await list;
    expect(replies).toEqual(['l']);
  });

  it('is not a tab list that opens a tab: browser_tabs new waits for the name', async () => {
    const name = slowChrome();
    const { runner, arrivals, answers } = heldCalls();
    const open = runner.run(request('n', 'browser_tabs', { action: 'new' }), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(arrivals).toHaveLength(0);
    name('https://shop.test/');
    await vi.waitFor(() => expect(arrivals).toHaveLength(1));
    answers[0]?.();
    await open;
  });
});
