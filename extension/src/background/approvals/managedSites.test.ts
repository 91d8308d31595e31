import { describe, expect, it } from 'vitest';
import type { AdminSites } from '@browser-agent/protocol';
import { ManagedSites, parseManagedSites, type ManagedSitesDeps } from './managedSites';

const never = (): Promise<Record<string, unknown>> => new Promise(() => undefined);

function deps(read: ManagedSitesDeps['read'], last?: AdminSites) {
  const saved: (AdminSites | undefined)[] = [];
  const warnings: string[] = [];
  const d: ManagedSitesDeps = {
    read,
    loadLast: () => Promise.resolve(last),
    saveLast: (lists) => {
      saved.push(lists);
      return Promise.resolve();
    },
    warn: (m) => warnings.push(m),
  };
  return { d, saved, warnings };
}

describe('the admin lists from Chrome policy', () => {
  it('sends the read again when Chrome loses the first one (Chromium 156 after a start)', async () => {
    let reads = 0;
    const read = () => (++reads === 1 ? never() : Promise.resolve({ blockSites: ['evil.test'] }));
    const { d, saved } = deps(read);
    const lists = await new ManagedSites(d, 1_000, 20).get();
    expect(reads).toBe(2);
    expect(lists?.block).toEqual(['evil.test']);
    expect(saved[0]?.block).toEqual(['evil.test']);
  });

  it('when Chrome never answers, applies the lists last read in this profile, waiting once', async () => {
    const last: AdminSites = { block: ['blocked.test'], source: 'Chrome policy for Browser Agent' };
    let reads = 0;
    const { d, warnings } = deps(() => {
      reads++;
      return never();
    }, last);
    const managed = new ManagedSites(d, 60, 20);
    const started = Date.now();
    expect((await managed.get())?.block).toEqual(['blocked.test']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(reads).toBeGreaterThan(1);
    expect(warnings).toHaveLength(1);
    const again = Date.now();
    expect((await managed.get())?.block).toEqual(['blocked.test']);
    expect(Date.now() - again).toBeLessThan(30);
  });

  it('means no lists when there is no managed storage, or the policy sets none', async () => {
    const { d } = deps(() => Promise.reject(new Error('no policy')));
    expect(await new ManagedSites(d, 100, 20).get()).toBe(undefined);
    expect(parseManagedSites({})).toBe(undefined);
    expect(parseManagedSites({ allowSites: ['a.test'] })).toMatchObject({ allow: ['a.test'] });
  });

  it('keeps an answer until the policy changes', async () => {
    let reads = 0;
    let answer: Record<string, unknown> = { allowSites: ['one.test'] };
    const { d } = deps(() => {
      reads++;
      return Promise.resolve(answer);
    });
    const managed = new ManagedSites(d, 1_000, 20);
    expect((await managed.get())?.allow).toEqual(['one.test']);
    expect((await managed.get())?.allow).toEqual(['one.test']);
    expect(reads).toBe(1);
    answer = { allowSites: ['two.test'] };
    managed.changed();
    expect((await managed.get())?.allow).toEqual(['two.test']);
    expect(reads).toBe(2);
  });

  it("on a machine without policy files, calls do not wait; Chrome's answer applies when it comes", async () => {
    const last: AdminSites = { block: ['kept.test'], source: 'Chrome policy for Browser Agent' };
    let answer: (items: Record<string, unknown>) => void = () => undefined;
    const firstRead = new Promise<Record<string, unknown>>((resolve) => (answer = resolve));
    let reads = 0;
    const { d, warnings } = deps(() => (++reads === 1 ? firstRead : never()), last);
    // A wait of a minute would time the test out: the lists come back without it.
    const managed = new ManagedSites(d, 60_000, 20);
    managed.warm();
    managed.noPolicyFiles();
    expect((await managed.get())?.block).toEqual(['kept.test']);
    expect(warnings).toEqual([]);
    answer({ blockSites: ['admin.test'] });
    await firstRead;
    await Promise.resolve();
    expect((await managed.get())?.block).toEqual(['admin.test']);
  });

  it('reads the lists last kept in this profile once while Chrome is silent, not on every call', async () => {
    const last: AdminSites = { block: ['kept.test'], source: 'Chrome policy for Browser Agent' };
    const { d } = deps(never, last);
    let loads = 0;
    const managed = new ManagedSites(
      {
        ...d,
        loadLast: () => {
          loads += 1;
          return d.loadLast();
        },
      },
      60_000,
      20,
    );
    managed.noPolicyFiles();
    for (let i = 0; i < 3; i += 1) expect((await managed.get())?.block).toEqual(['kept.test']);
    expect(loads).toBe(1);
    // A changed policy is read again from the start, the kept lists included.
    managed.changed();
    managed.noPolicyFiles();
    await managed.get();
    expect(loads).toBe(2);
  });

  it('waits again once Chrome says the policy changed, whatever the files said at launch', async () => {
    let reads = 0;
    const { d } = deps(() =>
      ++reads === 1 ? never() : Promise.resolve({ allowSites: ['new.test'] }),
    );
    const managed = new ManagedSites(d, 60_000, 20);
    managed.noPolicyFiles();
    expect(await managed.get()).toBe(undefined);
    managed.changed();
    expect((await managed.get())?.allow).toEqual(['new.test']);
  });
});
