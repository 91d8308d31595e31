import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionContexts } from './sessionContext';
import { TabStates } from './tabStates';
import { fakeCdp } from './testing/fakeCdp';
import type { DebuggerHub } from './debuggerHub';
import type { SessionRecord, SessionStore } from './sessionStore';
import type { SpareTab } from './worker/spareTab';

const NEW_TAB = 41;
const GROUP = 3;

function record(): SessionRecord {
  return {
    sessionId: 's1',
    client: { name: 'test', version: '1' },
    project: undefined,
    policy: undefined,
    state: 'active',
    groupId: undefined,
    color: 'blue',
    lastActivity: undefined,
    tabIds: [],
    currentTabId: undefined,
  };
}

function contextsOf(store: SessionStore, hub: DebuggerHub, spare?: SpareTab): SessionContexts {
  return new SessionContexts(
    store,
    hub,
    new TabStates(),
    () => undefined,
    () => {},
    spare,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SessionContexts: a new tab', () => {
  it('attaches the debugger while the tab is being grouped, and is saved in its group', async () => {
    const events: string[] = [];
    let groupAnswer: (id: number) => void = () => undefined;
    vi.stubGlobal('chrome', {
      tabs: {
        create: () => Promise.resolve({ id: NEW_TAB }),
        // The group's answer is held until the test has seen whether the attach started.
        group: () =>
          new Promise<number>((resolve) => {
            events.push('group asked');
            groupAnswer = resolve;
          }),
      },
      tabGroups: { update: () => Promise.resolve(events.push('group titled')) },
    });
    const hub = {
      attach: (tabId: number) => {
        events.push(`attach ${tabId}`);
        return Promise.resolve(fakeCdp({}));
      },
    } as unknown as DebuggerHub;
    const store = {
      save: () => {
        events.push('saved');
        return Promise.resolve();
      },
    } as unknown as SessionStore;
    const session = record();
    const contexts = contextsOf(store, hub);
    const opened = contexts.create(session).newTab();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One after the other, the attach would wait for Chrome's group answers (2–3 round trips).
    expect(events).toEqual(['group asked', `attach ${NEW_TAB}`]);
    groupAnswer(GROUP);
    const tab = await opened;
    expect(tab.tabId).toBe(NEW_TAB);
    expect(events).toEqual(['group asked', `attach ${NEW_TAB}`, 'group titled', 'saved']);
    expect(session).toMatchObject({ tabIds: [NEW_TAB], currentTabId: NEW_TAB, groupId: GROUP });
  });
});

describe('SessionContexts: the launched browser’s startup tab', () => {
  it('is the first tab of the first session, shown, where a new one would be created', async () => {
    const created: unknown[] = [];
    const activated: number[] = [];
    vi.stubGlobal('chrome', {
      tabs: {
        create: (props: unknown) => {
          created.push(props);
          return Promise.resolve({ id: NEW_TAB });
        },
        update: (tabId: number) => {
          activated.push(tabId);
          return Promise.resolve({ id: tabId });
        },
        group: () => Promise.resolve(GROUP),
      },
      tabGroups: { update: () => Promise.resolve({}) },
    });
    const spare = {
      take: () => Promise.resolve({ id: 1, active: false, url: 'about:blank' }),
    } as unknown as SpareTab;
    const hub = { attach: () => Promise.resolve(fakeCdp({})) } as unknown as DebuggerHub;
    const store = { save: () => Promise.resolve() } as unknown as SessionStore;
    const session = record();
    const contexts = contextsOf(store, hub, spare);
    expect((await contexts.create(session).newTab()).tabId).toBe(1);
    expect(created, 'no new tab').toEqual([]);
    expect(activated).toEqual([1]);
    expect(session).toMatchObject({ tabIds: [1], currentTabId: 1 });
  });
});

describe('SessionContexts: the tab list', () => {
  it('asks Chrome for every tab at once, and lists them in the session’s order', async () => {
    const asked: number[] = [];
    const answers: (() => void)[] = [];
    vi.stubGlobal('chrome', {
      tabs: {
        get: (tabId: number) =>
          new Promise((resolve, reject) => {
            asked.push(tabId);
            answers.push(() =>
              tabId === 8
                ? reject(new Error('No tab'))
                : resolve({ id: tabId, url: `u${tabId}`, title: `t${tabId}` }),
            );
          }),
      },
    });
    const hub = { handleDetach: () => undefined } as unknown as DebuggerHub;
    const store = {
      save: () => Promise.resolve(),
      ownerOf: () => Promise.resolve(undefined),
    } as unknown as SessionStore;
    const session = { ...record(), tabIds: [7, 8, 9], currentTabId: 9 };
    const listing = contextsOf(store, hub).create(session).listTabs();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One after the other, the second would be asked only once the first had answered.
    expect(asked).toEqual([7, 8, 9]);
    for (const answer of answers.reverse()) answer();
    expect(await listing).toEqual([
      { index: 0, tabId: 7, url: 'u7', title: 't7', current: false },
      { index: 1, tabId: 9, url: 'u9', title: 't9', current: true },
    ]);
  });
  it('reads the tabs left open while one closes, and marks the one that became current', async () => {
    const events: string[] = [];
    let removed: () => void = () => undefined;
    vi.stubGlobal('chrome', {
      tabs: {
        get: (tabId: number) => {
          events.push(`get ${tabId}`);
          return Promise.resolve({ id: tabId, url: `u${tabId}`, title: `t${tabId}` });
        },
        // Chrome's answer to the remove is held until the test has seen what was asked meanwhile.
        remove: (tabId: number) =>
          new Promise<void>((resolve) => {
            events.push(`remove ${tabId}`);
            removed = resolve;
          }),
      },
    });
    const hub = {
      isAttached: () => false,
      detach: () => Promise.resolve(),
      handleDetach: () => undefined,
    } as unknown as DebuggerHub;
    const session = { ...record(), tabIds: [7, 8, 9], currentTabId: 9 };
    const store = {
      save: () => Promise.resolve(),
      ownerOf: () => Promise.resolve(session),
    } as unknown as SessionStore;
    const closing = contextsOf(store, hub).create(session).closeTab();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One after the other, the tabs would be asked for only once Chrome had removed the tab.
    expect([...events].sort()).toEqual(['get 7', 'get 8', 'remove 9']);
    removed();
    expect((await closing).left).toEqual([
      { index: 0, tabId: 7, url: 'u7', title: 't7', current: false },
      { index: 1, tabId: 8, url: 'u8', title: 't8', current: true },
    ]);
    expect(session.tabIds).toEqual([7, 8]);
  });
});

describe('SessionContexts: the tab a call arrived on', () => {
  it('gives its URL once, and only for that tab', async () => {
    const store = { ownerOf: () => Promise.resolve(undefined) } as unknown as SessionStore;
    const contexts = contextsOf(store, {} as DebuggerHub);
    const url = Promise.resolve('https://shop.test/');
    const ctx = contexts.create(record(), undefined, undefined, { tabId: 7, url });
    expect(await ctx.arrivalUrl?.(7)).toBe('https://shop.test/');
    // A second check in the same call (a batch's next step) asks Chrome again.
    expect(ctx.arrivalUrl?.(7)).toBe(undefined);
    const other = contexts.create(record(), undefined, undefined, { tabId: 7, url });
    // Another tab (the session switched) is no answer, and the arrival is spent.
    expect(other.arrivalUrl?.(8)).toBe(undefined);
    expect(other.arrivalUrl?.(7)).toBe(undefined);
    expect(contexts.create(record()).arrivalUrl?.(7)).toBe(undefined);
  });
});
