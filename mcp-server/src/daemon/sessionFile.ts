import { join } from 'node:path';
import type {
  ClientInfo,
  OriginPolicy,
  ResumeStats,
  SessionSettings,
  TransactionLimits,
} from '@browser-agent/protocol';
import { JsonFile, hasStrings } from './jsonFile.js';

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
 * Keyed sessions on disk (`<state dir>/sessions.json`, 0600), written on every change; a daemon
 * killed mid-write leaves the previous file whole (jsonFile.ts).
 */
export class SessionFile {
  readonly #file: JsonFile<SavedSession>;

  constructor(stateDir: string) {
    this.#file = new JsonFile(join(stateDir, 'sessions.json'), isSavedSession);
  }

  load(): SavedSession[] {
    return this.#file.read();
  }

  save(sessions: SavedSession[]): void {
    this.#file.write(sessions);
  }
}

function isSavedSession(entry: unknown): entry is SavedSession {
  return hasStrings(entry, 'id', 'key');
}
