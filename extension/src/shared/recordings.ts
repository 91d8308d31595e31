/**
 * The recording of what agents did: one step per state-changing call, with a small JPEG of the
 * tab taken after it (secret fields masked, as browser_take_screenshot masks them). Kept in the
 * extension's own IndexedDB, which no page and no other extension can read, and never sent
 * anywhere: the worker writes steps (background/recording/), the panel reads, exports and
 * deletes them. Bounded: a session keeps its newest MAX_STEPS_PER_SESSION steps, all sessions
 * together their newest MAX_STEPS_TOTAL steps and MAX_BYTES_TOTAL bytes of images; the oldest
 * steps go first.
 */

export const MAX_STEPS_PER_SESSION = 30;
export const MAX_STEPS_TOTAL = 150;
export const MAX_BYTES_TOTAL = 12 * 1024 * 1024;

const DB_NAME = 'recordings';
const DB_VERSION = 1;
const STEPS = 'steps';
const BY_SESSION = 'sessionId';

export interface RecordedStep {
  /** Assigned by IndexedDB, in the order steps were kept. */
  id?: number;
  sessionId: string;
  /** The client's name as the panel shows it. */
  client: string;
  at: number;
  tool: string;
  /** The sentence the live log shows for the call. */
  sentence: string;
  /** 'ok' or the call's error code. */
  outcome: string;
  host: string | undefined;
  /** The tab after the call (JPEG); absent when there was no tab to capture. */
  image: Blob | undefined;
  /** Where the call pressed the mouse, as fractions of the viewport (0..1). */
  marker: { x: number; y: number } | undefined;
}

export interface RecordingSummary {
  sessionId: string;
  client: string;
  steps: number;
  first: number;
  last: number;
}

let opened: Promise<IDBDatabase> | undefined;

function db(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STEPS, { keyPath: 'id', autoIncrement: true });
      store.createIndex(BY_SESSION, BY_SESSION);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opened = undefined;
      reject(request.error ?? new Error('IndexedDB did not open'));
    };
  });
  return opened;
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

function all(store: IDBObjectStore | IDBIndex, key?: IDBValidKey): Promise<RecordedStep[]> {
  return new Promise((resolve, reject) => {
    const request = store.getAll(key);
    request.onsuccess = () => resolve(request.result as RecordedStep[]);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
  });
}

/** Keeps a step, then drops the oldest ones past the bounds. */
export async function addStep(step: RecordedStep): Promise<void> {
  const tx = (await db()).transaction(STEPS, 'readwrite');
  const store = tx.objectStore(STEPS);
  store.add(step);
  for (const id of stepsToDrop(await all(store), step.sessionId)) store.delete(id);
  await done(tx);
}

/**
 * Which steps go, oldest first, once `sessionId` got a new one: past its own
 * MAX_STEPS_PER_SESSION, then past MAX_STEPS_TOTAL or MAX_BYTES_TOTAL for all sessions together.
 * `steps` are in the order they were kept (ids ascending); the newest step always stays.
 */
export function stepsToDrop(
  steps: ReadonlyArray<Pick<RecordedStep, 'id' | 'sessionId'> & { image?: { size: number } }>,
  sessionId: string,
): number[] {
  const drop = new Set<number>();
  const mine = steps.filter((s) => s.sessionId === sessionId);
  for (const s of mine.slice(0, Math.max(0, mine.length - MAX_STEPS_PER_SESSION)))
    if (s.id !== undefined) drop.add(s.id);
  const kept = steps.filter((s) => s.id !== undefined && !drop.has(s.id));
  let bytes = kept.reduce((sum, s) => sum + (s.image?.size ?? 0), 0);
  while (kept.length > 1 && (kept.length > MAX_STEPS_TOTAL || bytes > MAX_BYTES_TOTAL)) {
    const oldest = kept.shift();
    if (oldest?.id === undefined) break;
    drop.add(oldest.id);
    bytes -= oldest.image?.size ?? 0;
  }
  return [...drop];
}

/** Every session with steps kept, newest first. */
export async function recordings(): Promise<RecordingSummary[]> {
  const tx = (await db()).transaction(STEPS, 'readonly');
  const steps = await all(tx.objectStore(STEPS));
  const bySession = new Map<string, RecordingSummary>();
  for (const s of steps) {
    const r = bySession.get(s.sessionId);
    if (r) {
      r.steps += 1;
      r.last = Math.max(r.last, s.at);
    } else
      bySession.set(s.sessionId, {
        sessionId: s.sessionId,
        client: s.client,
        steps: 1,
        first: s.at,
        last: s.at,
      });
  }
  return [...bySession.values()].sort((a, b) => b.last - a.last);
}

/** A session's steps, oldest first. */
export async function stepsOf(sessionId: string): Promise<RecordedStep[]> {
  const tx = (await db()).transaction(STEPS, 'readonly');
  const steps = await all(tx.objectStore(STEPS).index(BY_SESSION), sessionId);
  return steps.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
}

/** Deletes a session's recording. */
export async function deleteRecording(sessionId: string): Promise<void> {
  const tx = (await db()).transaction(STEPS, 'readwrite');
  const store = tx.objectStore(STEPS);
  for (const s of await all(store.index(BY_SESSION), sessionId))
    if (s.id !== undefined) store.delete(s.id);
  await done(tx);
}
