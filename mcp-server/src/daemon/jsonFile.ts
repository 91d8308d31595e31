import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * A list kept in one JSON file that only its user may read (0600): the daemon's pairings and its
 * keyed sessions. A write goes to `<file>.tmp` and is renamed over the file, so a daemon killed
 * mid-write leaves the previous list whole. A read never throws: a missing or unreadable file is
 * an empty list, and entries that fail `valid` (hand-edited, or from another release) are left out.
 */
export class JsonFile<T> {
  readonly #path: string;
  readonly #valid: (entry: unknown) => entry is T;

  constructor(path: string, valid: (entry: unknown) => entry is T) {
    this.#path = path;
    this.#valid = valid;
  }

  /** Where the list lives (the daemon watches the pairings file for revocations). */
  get path(): string {
    return this.#path;
  }

  read(): T[] {
    if (!existsSync(this.#path)) return [];
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#path, 'utf8'));
      return Array.isArray(parsed) ? parsed.filter(this.#valid) : [];
    } catch {
      return [];
    }
  }

  write(entries: readonly T[]): void {
    const tmp = `${this.#path}.tmp`;
    writeFileSync(tmp, JSON.stringify(entries, null, 2), { mode: 0o600 });
    // `mode` applies only when the file is created; a stale .tmp keeps the mode it had.
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.#path);
  }
}

/** True for an object whose named fields are all strings: the least a stored entry must have. */
export function hasStrings<K extends string>(
  entry: unknown,
  ...keys: K[]
): entry is Record<K, string> {
  if (typeof entry !== 'object' || entry === null) return false;
  const record = entry as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === 'string');
}
