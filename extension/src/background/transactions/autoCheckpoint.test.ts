import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeContext, fakeTab } from '../testing/fakeContext';
import { autoCheckpoint } from './autoCheckpoint';
import { TransactionManager } from './manager';

/** Only storage.session is used, to mirror the state across worker restarts. */
function stubStorage(): void {
  const items: Record<string, unknown> = {};
  vi.stubGlobal('chrome', {
    storage: {
      session: {
        get: (key: string) => Promise.resolve({ [key]: items[key] }),
        set: (values: Record<string, unknown>) => Promise.resolve(Object.assign(items, values)),
      },
    },
  });
}

function session() {
  const cdp = fakeCdp({
    'Network.getCookies': () => ({ cookies: [] }),
    'Runtime.evaluate': () => ({
      result: { type: 'string', value: JSON.stringify({ local: [['k', 'v']], session: [] }) },
    }),
  });
  return fakeContext([fakeTab(cdp, 1)], () => cdp);
}

const ids = async (m: TransactionManager, sessionId: string) =>
  (await m.of(sessionId)).history.map((c) => `${c.id}:${c.kind}`);

beforeEach(stubStorage);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('automatic checkpoints', () => {
  it('are off by default', async () => {
    const manager = new TransactionManager();
    const ctx = session();
    for (let i = 0; i < 5; i++) await autoCheckpoint(manager, 'browser_click', ctx);
    expect(await ids(manager, ctx.sessionId)).toEqual([]);
  });

  it('every N calls, before the call, keeping at most maxCheckpoints', async () => {
    const manager = new TransactionManager();
    const ctx = session();
    await manager.configure(
      ctx.sessionId,
      { rollbackTimeoutMs: 5_000, maxCheckpoints: 2, autoCheckpointEveryCalls: 2 },
      undefined,
    );
    for (let i = 0; i < 7; i++) await autoCheckpoint(manager, 'browser_click', ctx);
    // Before calls 3, 5 and 7; the first was dropped.
    expect(await ids(manager, ctx.sessionId)).toEqual(['cp2:auto', 'cp3:auto']);
    const [kept] = (await manager.of(ctx.sessionId)).history;
    expect(kept?.tabs[0]?.localStorage).toEqual([['k', 'v']]);
  });

  it('every T seconds, counted from the first call', async () => {
    vi.useFakeTimers();
    const manager = new TransactionManager();
    const ctx = session();
    await manager.configure(
      ctx.sessionId,
      { rollbackTimeoutMs: 5_000, maxCheckpoints: 10, autoCheckpointEverySeconds: 60 },
      undefined,
    );
    await autoCheckpoint(manager, 'browser_click', ctx);
    vi.advanceTimersByTime(59_000);
    await autoCheckpoint(manager, 'browser_click', ctx);
    expect(await ids(manager, ctx.sessionId)).toEqual([]);
    vi.advanceTimersByTime(1_000);
    await autoCheckpoint(manager, 'browser_click', ctx);
    expect(await ids(manager, ctx.sessionId)).toEqual(['cp1:auto']);
  });

  it('not for the transaction tools, nor while a transaction is open', async () => {
    const manager = new TransactionManager();
    const ctx = session();
    await manager.configure(
      ctx.sessionId,
      { rollbackTimeoutMs: 5_000, maxCheckpoints: 10, autoCheckpointEveryCalls: 1 },
      undefined,
    );
    for (let i = 0; i < 3; i++) await autoCheckpoint(manager, 'browser_session_info', ctx);
    expect(await ids(manager, ctx.sessionId)).toEqual([]);
    const open = await manager.name(ctx.sessionId, {
      kind: 'begin',
      label: undefined,
      takenAt: Date.now(),
      tabs: [],
      bytes: 2,
    });
    await manager.begin(ctx.sessionId, open);
    for (let i = 0; i < 3; i++) await autoCheckpoint(manager, 'browser_click', ctx);
    expect(await ids(manager, ctx.sessionId)).toEqual([]);
  });
});
