import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ClientInfo,
  OriginPolicy,
  ResumeStats,
  SessionSettings,
  TransactionLimits,
} from '@browser-agent/protocol';

/** What survives the daemon: enough to bind a restarted server to its session and tabs again. */
export interface SavedSession {
  id: string;
  key: string;
  client: ClientInfo;
  project: string | undefined;
  policy: OriginPolicy | undefined;
  transactions: TransactionLimits | undefined;
  /** Absent in files an older daemon wrote. */
  resume?: ResumeStats | undefined;
  settings?: SessionSettings | undefined;
}

/**
 * Keyed sessions on disk (`<state dir>/sessions.json`, 0600), written on every change with a
 * rename so a daemon killed mid-write leaves the previous file whole.
 */
export class SessionFile {
  readonly #path: string;

  constructor(stateDir: string) {
    this.#path = join(stateDir, 'sessions.json');
  }

  load(): SavedSession[] {
    if (!existsSync(this.#path)) return [];
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#path, 'utf8'));
      return Array.isArray(parsed)
        ? (parsed as SavedSession[]).filter(
            (s) => typeof s.id === 'string' && typeof s.key === 'string',
          )
        : [];
    } catch {
      return [];
    }
  }

  save(sessions: SavedSession[]): void {
    const tmp = `${this.#path}.tmp`;
    writeFileSync(tmp, JSON.stringify(sessions), { mode: 0o600 });
    renameSync(tmp, this.#path);
  }
}
