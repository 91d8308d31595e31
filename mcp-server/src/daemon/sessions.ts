import { randomUUID } from 'node:crypto';
import type { ClientInfo, OriginPolicy, SessionSettings } from '@browser-agent/protocol';
import type { ServerConnection } from './serverConnection.js';
import type { SessionFile } from './sessionFile.js';

export interface Session {
  id: string;
  key: string | undefined;
  client: ClientInfo;
  project: string | undefined;
  policy: OriginPolicy | undefined;
  settings?: SessionSettings | undefined;
  /** Undefined while the session waits out its grace period for its server to come back. */
  conn: ServerConnection | undefined;
  graceTimer: NodeJS.Timeout | undefined;
}

/**
 * The daemon's sessions. A session outlives its server connection by a grace period, so a
 * server restarted with the same session key takes back the same session (and its tabs).
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();
  readonly #graceMs: number;
  readonly #onExpire: (session: Session) => void;

  readonly #file: SessionFile | undefined;

  constructor(graceMs: number, onExpire: (session: Session) => void, file?: SessionFile) {
    this.#graceMs = graceMs;
    this.#onExpire = onExpire;
    this.#file = file;
  }

  /**
   * Sessions a previous daemon left (it was killed): each waits out a grace period for its server
   * to come back with its key, exactly as if its server had just disconnected.
   */
  restore(): Session[] {
    const restored: Session[] = [];
    for (const saved of this.#file?.load() ?? []) {
      const session: Session = { ...saved, conn: undefined, graceTimer: undefined };
      session.graceTimer = setTimeout(() => this.#expire(session), this.#graceMs);
      this.#sessions.set(session.id, session);
      restored.push(session);
    }
    return restored;
  }

  #persist(): void {
    const keyed = [...this.#sessions.values()].flatMap((s) =>
      s.key === undefined
        ? []
        : [
            {
              id: s.id,
              key: s.key,
              client: s.client,
              project: s.project,
              policy: s.policy,
              settings: s.settings,
            },
          ],
    );
    try {
      this.#file?.save(keyed);
    } catch {
      // Persistence is for recovery; a full disk must not break live sessions.
    }
  }

  get size(): number {
    return this.#sessions.size;
  }

  values(): IterableIterator<Session> {
    return this.#sessions.values();
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** A new session, or the keyed one taken back; returns the connection it replaced, if any. */
  bind(
    conn: ServerConnection,
    client: ClientInfo,
    project: string | undefined,
    key: string | undefined,
    policy?: OriginPolicy,
    settings?: SessionSettings,
  ): { session: Session; resumed: boolean; replaced: ServerConnection | undefined } {
    const existing =
      key === undefined ? undefined : [...this.#sessions.values()].find((s) => s.key === key);
    if (existing) {
      clearTimeout(existing.graceTimer);
      existing.graceTimer = undefined;
      const replaced = existing.conn;
      existing.conn = conn;
      existing.client = client;
      existing.project = project ?? existing.project;
      this.#persist();
      return { session: existing, resumed: true, replaced };
    }
    const session: Session = {
      id: randomUUID(),
      key,
      client,
      project,
      policy,
      settings,
      conn,
      graceTimer: undefined,
    };
    this.#sessions.set(session.id, session);
    this.#persist();
    return { session, resumed: false, replaced: undefined };
  }

  /** The server went away: the session waits `graceMs` for it (at once without a key). */
  release(conn: ServerConnection): Session | undefined {
    const session = [...this.#sessions.values()].find((s) => s.conn === conn);
    if (!session) return undefined;
    session.conn = undefined;
    // Without a key nobody can take the session back, so there is nothing to wait for.
    const graceMs = session.key === undefined ? 0 : this.#graceMs;
    session.graceTimer = setTimeout(() => this.#expire(session), graceMs);
    return session;
  }

  clear(): void {
    for (const s of this.#sessions.values()) clearTimeout(s.graceTimer);
    this.#sessions.clear();
  }

  #expire(session: Session): void {
    if (session.conn !== undefined || !this.#sessions.delete(session.id)) return;
    this.#persist();
    this.#onExpire(session);
  }
}
