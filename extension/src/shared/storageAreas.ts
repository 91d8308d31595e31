/**
 * The extension's own storage (`local`, `session`), chosen once per JS context.
 *
 * A regular context (the user's Chrome, a launched browser's default profile) uses
 * chrome.storage, unchanged. An incognito context is one of an isolated launch's CDP browser
 * contexts, where the extension runs in split mode (docs/isolated.md): each context has its own
 * worker and relay page, but chrome.storage.local and .session are shared by all of them and by
 * the regular worker (measured on Chromium 156). There every area lives in this JS context's
 * memory instead, so a context's pairing, settings, sessions and grants neither leak into another
 * nor outlive it; the relay page hands its worker what the worker needs (launchHandoff.ts).
 *
 * chrome.storage.managed stays on the real API everywhere: it is the admin's read-only policy.
 */

export type StorageChanges = Record<string, chrome.storage.StorageChange>;
export type StorageListener = (changes: StorageChanges, areaName: chrome.storage.AreaName) => void;

/** The part of chrome.storage.StorageArea this extension uses. */
export interface StorageArea {
  get(keys: string | string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

export interface StorageAreas {
  /** True when nothing is written to chrome.storage: the areas live in this JS context only. */
  readonly inMemory: boolean;
  readonly local: StorageArea;
  readonly session: StorageArea;
  /** Like chrome.storage.onChanged, for `local` and `session` (and, regular, every area). */
  readonly onChanged: {
    addListener(listener: StorageListener): void;
    removeListener(listener: StorageListener): void;
  };
}

/** chrome.storage itself, looked up at each call (tests stub `chrome` per test). */
export function chromeStorageAreas(): StorageAreas {
  const area = (name: 'local' | 'session'): StorageArea => ({
    get: (keys) => chrome.storage[name].get(keys),
    set: (items) => chrome.storage[name].set(items),
    remove: (keys) => chrome.storage[name].remove(keys),
  });
  return {
    inMemory: false,
    local: area('local'),
    session: area('session'),
    onChanged: {
      addListener: (listener) => chrome.storage.onChanged.addListener(listener),
      removeListener: (listener) => chrome.storage.onChanged.removeListener(listener),
    },
  };
}

/**
 * Areas private to the caller. Values are copied as chrome.storage keeps them (JSON: an
 * `undefined` property is dropped, a Date becomes its string), so no caller changes the store
 * through a reference. Listeners hear of keys whose value changed, after the write.
 */
export function memoryStorageAreas(): StorageAreas {
  const listeners = new Set<StorageListener>();
  const area = (name: 'local' | 'session'): StorageArea => {
    /** Each value as its JSON text: a copy on every read, a cheap comparison on every write. */
    const items = new Map<string, string>();
    const write = (next: Map<string, string | undefined>): void => {
      const changes: StorageChanges = {};
      for (const [key, text] of next) {
        const old = items.get(key);
        if (old === text) continue;
        if (text === undefined) items.delete(key);
        else items.set(key, text);
        changes[key] = {
          ...(old === undefined ? {} : { oldValue: JSON.parse(old) as unknown }),
          ...(text === undefined ? {} : { newValue: JSON.parse(text) as unknown }),
        };
      }
      if (Object.keys(changes).length === 0) return;
      // A task of its own, as chrome.storage's events come from the browser process: a caller's
      // `await set()` has resumed before any listener runs.
      for (const listener of listeners)
        setTimeout(() => listener(structuredClone(changes), name), 0);
    };
    return {
      get: (keys) => {
        const found: Record<string, unknown> = {};
        for (const key of typeof keys === 'string' ? [keys] : keys) {
          const text = items.get(key);
          if (text !== undefined) found[key] = JSON.parse(text) as unknown;
        }
        return Promise.resolve(found);
      },
      set: (values) => {
        const next = new Map<string, string | undefined>();
        for (const [key, value] of Object.entries(values)) {
          // JSON.stringify(undefined) (or of a function) is undefined: chrome.storage skips it too.
          const text: string | undefined = JSON.stringify(value);
          if (text !== undefined) next.set(key, text);
        }
        write(next);
        return Promise.resolve();
      },
      remove: (keys) => {
        write(new Map((typeof keys === 'string' ? [keys] : keys).map((key) => [key, undefined])));
        return Promise.resolve();
      },
    };
  };
  return {
    inMemory: true,
    local: area('local'),
    session: area('session'),
    onChanged: {
      addListener: (listener) => void listeners.add(listener),
      removeListener: (listener) => void listeners.delete(listener),
    },
  };
}

/** An incognito context: in this extension, only a split-mode isolated launch's context. */
export function isIncognitoContext(): boolean {
  return typeof chrome !== 'undefined' && chrome.extension?.inIncognitoContext === true;
}

let chosen: StorageAreas | undefined;

/** Decided on first use: a context never changes between incognito and regular. */
function areas(): StorageAreas {
  chosen ??= isIncognitoContext() ? memoryStorageAreas() : chromeStorageAreas();
  return chosen;
}

export const localArea = (): StorageArea => areas().local;
export const sessionArea = (): StorageArea => areas().session;
export const inMemoryContext = (): boolean => areas().inMemory;
export const onStorageChanged = {
  addListener: (listener: StorageListener): void => areas().onChanged.addListener(listener),
  removeListener: (listener: StorageListener): void => areas().onChanged.removeListener(listener),
};
