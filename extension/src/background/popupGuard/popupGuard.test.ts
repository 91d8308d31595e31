import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionRecord, SessionStore } from '../sessionStore';
import { PopupGuard } from './popupGuard';

const TAB = 7;

/** A session on shop.test whose policy allows only its own site, in a Chrome that counts reads. */
function guardWithSession() {
  const record = {
    sessionId: 's1',
    state: 'active',
    policy: { allowedOrigins: ['shop.test'] },
    tabIds: [TAB],
  } as unknown as SessionRecord;
  const store = { all: () => Promise.resolve([record]) } as unknown as SessionStore;
  let rules: chrome.declarativeNetRequest.Rule[] = [];
  const counts = { queries: 0, updates: 0 };
  vi.stubGlobal('chrome', {
    tabs: {
      query: () => {
        counts.queries += 1;
        return Promise.resolve([{ id: TAB, url: 'https://shop.test/cart' }]);
      },
    },
    declarativeNetRequest: {
      getSessionRules: () => Promise.resolve(rules),
      updateSessionRules: (u: { addRules?: typeof rules; removeRuleIds?: number[] }) => {
        counts.updates += 1;
        rules = [...rules, ...(u.addRules ?? [])].filter((r) => !u.removeRuleIds?.includes(r.id));
        return Promise.resolve();
      },
    },
    extension: { inIncognitoContext: false },
  });
  return { guard: new PopupGuard(store), record, counts, rules: () => rules };
}

/** Lets the guard's queued rebuilds run out. */
async function settled(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((r) => setTimeout(r, 0));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PopupGuard: rebuilding the rules when the sessions change', () => {
  it('rebuilds on the first change, then only when a policy, a state or a tab list changed', async () => {
    const { guard, record, counts, rules } = guardWithSession();
    guard.sessionsChanged();
    await settled();
    expect(rules().length).toBeGreaterThan(0);
    const afterFirst = { ...counts };

    // A call's start and end say the sessions changed; nothing the rules read did.
    for (let i = 0; i < 5; i += 1) guard.sessionsChanged();
    await settled();
    expect(counts).toEqual(afterFirst);

    // The session is revoked: its rules go.
    (record as { state: string }).state = 'revoked';
    guard.sessionsChanged();
    await settled();
    expect(counts.queries).toBeGreaterThan(afterFirst.queries);
    expect(rules()).toEqual([]);
  });

  it('a tab list that changes is a change', async () => {
    const { guard, record, counts } = guardWithSession();
    guard.sessionsChanged();
    await settled();
    const before = counts.queries;
    record.tabIds.push(8);
    guard.sessionsChanged();
    await settled();
    expect(counts.queries).toBeGreaterThan(before);
  });

  it('refresh (a tab changed address or became known) always rebuilds', async () => {
    const { guard, counts } = guardWithSession();
    guard.sessionsChanged();
    await settled();
    const before = counts.queries;
    guard.refresh();
    await settled();
    expect(counts.queries).toBe(before + 1);
  });
});
