import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chromeStorageAreas,
  memoryStorageAreas,
  type StorageChanges,
  type StorageListener,
} from './storageAreas';

/** chrome.storage as far as the seam reaches it, recording every call. */
function fakeChromeStorage() {
  const calls: string[] = [];
  const area = (name: string) => ({
    get: (keys: unknown) => {
      calls.push(`${name}.get ${JSON.stringify(keys)}`);
      return Promise.resolve({ from: name });
    },
    set: (items: unknown) => {
      calls.push(`${name}.set ${JSON.stringify(items)}`);
      return Promise.resolve();
    },
    remove: (keys: unknown) => {
      calls.push(`${name}.remove ${JSON.stringify(keys)}`);
      return Promise.resolve();
    },
  });
  const listeners = new Set<unknown>();
  const storage = {
    local: area('local'),
    session: area('session'),
    onChanged: {
      addListener: (l: unknown) => listeners.add(l),
      removeListener: (l: unknown) => listeners.delete(l),
    },
  };
  return { storage, calls, listeners };
}

/** What listeners heard, once the microtasks that deliver it ran. */
function heard(areas: ReturnType<typeof memoryStorageAreas>) {
  const events: Array<{ changes: StorageChanges; area: string }> = [];
  const listener: StorageListener = (changes, area) => events.push({ changes, area });
  areas.onChanged.addListener(listener);
  return { events, listener };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the storage seam in a regular context', () => {
  it('passes every call to chrome.storage unchanged', async () => {
    const fake = fakeChromeStorage();
    vi.stubGlobal('chrome', { storage: fake.storage });
    const areas = chromeStorageAreas();
    expect(await areas.local.get('settings')).toEqual({ from: 'local' });
    await areas.session.set({ sessions: [1] });
    await areas.local.remove(['a', 'b']);
    expect(await areas.session.get(['x'])).toEqual({ from: 'session' });
    expect(fake.calls).toEqual([
      'local.get "settings"',
      'session.set {"sessions":[1]}',
      'local.remove ["a","b"]',
      'session.get ["x"]',
    ]);
    const listener: StorageListener = () => undefined;
    areas.onChanged.addListener(listener);
    expect(fake.listeners.has(listener)).toBe(true);
    areas.onChanged.removeListener(listener);
    expect(fake.listeners.size).toBe(0);
    expect(areas.inMemory).toBe(false);
  });

  it('is what the extension uses outside incognito, decided once', async () => {
    const fake = fakeChromeStorage();
    vi.stubGlobal('chrome', { storage: fake.storage, extension: { inIncognitoContext: false } });
    const seam = await import('./storageAreas');
    await seam.localArea().set({ k: 1 });
    expect(fake.calls).toEqual(['local.set {"k":1}']);
    vi.stubGlobal('chrome', { storage: fake.storage, extension: { inIncognitoContext: true } });
    expect(seam.inMemoryContext()).toBe(false);
    await seam.sessionArea().get('k');
    expect(fake.calls).toEqual(['local.set {"k":1}', 'session.get "k"']);
  });
});

describe('the storage seam in an incognito context', () => {
  it('never touches chrome.storage', async () => {
    const fake = fakeChromeStorage();
    vi.stubGlobal('chrome', { storage: fake.storage, extension: { inIncognitoContext: true } });
    const seam = await import('./storageAreas');
    expect(seam.inMemoryContext()).toBe(true);
    const listener: StorageListener = () => undefined;
    seam.onStorageChanged.addListener(listener);
    await seam.localArea().set({ pairings: [{ id: 'p' }] });
    await seam.sessionArea().set({ sessions: [] });
    expect(await seam.localArea().get('pairings')).toEqual({ pairings: [{ id: 'p' }] });
    await seam.localArea().remove('pairings');
    expect(fake.calls).toEqual([]);
    expect(fake.listeners.size).toBe(0);
  });

  it('keeps values per area, and answers only the keys it holds', async () => {
    const areas = memoryStorageAreas();
    await areas.local.set({ a: 1, b: { c: [2] } });
    await areas.session.set({ a: 'session' });
    expect(await areas.local.get(['a', 'b', 'missing'])).toEqual({ a: 1, b: { c: [2] } });
    expect(await areas.session.get('a')).toEqual({ a: 'session' });
    expect('missing' in (await areas.local.get('missing'))).toBe(false);
    await areas.local.remove(['a']);
    expect(await areas.local.get(['a', 'b'])).toEqual({ b: { c: [2] } });
    expect(await areas.session.get('a')).toEqual({ a: 'session' });
  });

  it('copies values in and out, as chrome.storage does', async () => {
    const areas = memoryStorageAreas();
    const value = { list: [1], when: new Date(0), gone: undefined };
    await areas.local.set({ value });
    value.list.push(2);
    const read = (await areas.local.get('value'))['value'] as { list: number[] };
    expect(read).toEqual({ list: [1], when: '1970-01-01T00:00:00.000Z' });
    read.list.push(3);
    expect(await areas.local.get('value')).toEqual({
      value: { list: [1], when: '1970-01-01T00:00:00.000Z' },
    });
    await areas.local.set({ nothing: undefined });
    expect(await areas.local.get('nothing')).toEqual({});
  });

  it('tells listeners what changed, in chrome.storage.onChanged shape, after the write', async () => {
    const areas = memoryStorageAreas();
    const { events, listener } = heard(areas);
    await areas.local.set({ k: 1 });
    expect(events).toEqual([]);
    await settle();
    await areas.local.set({ k: 2 });
    await areas.session.set({ s: true });
    await areas.local.remove('k');
    await settle();
    expect(events).toEqual([
      { changes: { k: { newValue: 1 } }, area: 'local' },
      { changes: { k: { oldValue: 1, newValue: 2 } }, area: 'local' },
      { changes: { s: { newValue: true } }, area: 'session' },
      { changes: { k: { oldValue: 2 } }, area: 'local' },
    ]);
    areas.onChanged.removeListener(listener);
    await areas.local.set({ k: 3 });
    await settle();
    expect(events).toHaveLength(4);
  });

  it('is silent about writes that change nothing', async () => {
    const areas = memoryStorageAreas();
    await areas.local.set({ k: { a: 1 } });
    const { events } = heard(areas);
    await areas.local.set({ k: { a: 1 } });
    await areas.local.remove('absent');
    await settle();
    expect(events).toEqual([]);
  });

  it('gives each listener its own copy of the changes', async () => {
    const areas = memoryStorageAreas();
    const seen: unknown[] = [];
    areas.onChanged.addListener((changes) => {
      (changes['k']?.newValue as number[]).push(99);
    });
    areas.onChanged.addListener((changes) => seen.push(changes['k']?.newValue));
    await areas.local.set({ k: [1] });
    await settle();
    expect(seen).toEqual([[1]]);
    expect(await areas.local.get('k')).toEqual({ k: [1] });
  });

  it('two contexts do not see each other: neither values nor changes', async () => {
    const one = memoryStorageAreas();
    const two = memoryStorageAreas();
    const heardByTwo = heard(two);
    await one.local.set({ pairings: ['one'] });
    await one.session.set({ sessions: ['one'] });
    await settle();
    expect(await two.local.get('pairings')).toEqual({});
    expect(await two.session.get('sessions')).toEqual({});
    expect(heardByTwo.events).toEqual([]);
    await two.local.set({ pairings: ['two'] });
    expect(await one.local.get('pairings')).toEqual({ pairings: ['one'] });
  });
});
