import { randomUUID } from 'node:crypto';
import type {
  ClientInfo,
  DaemonToExtensionFrame,
  OriginPolicy,
  ResumeStats,
  SessionSettings,
  TransactionLimits,
} from '@browser-agent/protocol';
import type { ServerConnection } from './serverConnection.js';
import type { SessionFile } from './sessionFile.js';

export interface Session {
  id: string;
  /** What a restarted server is recognised by: its explicit session key, else its project. */
  key: string | undefined;
  client: ClientInfo;
  project: string | undefined;
  policy: OriginPolicy | undefined;
  transactions: TransactionLimits | undefined;
  settings?: SessionSettings | undefined;
  /** Undefined while the session waits out its grace period for its server to come back. */
  conn: ServerConnection | undefined;
  graceTimer: NodeJS.Timeout | undefined;
  resume: ResumeStats;
  /** When the session lost its server (or a restarted daemon restored it). */
  lostAt: number | undefined;
  /** Set from a resuming register until the extension answers the session's first call. */
  resumingSince: number | undefined;
  /** Its last server said `bye` before closing: a resume needs no notice of lost calls. */
  leftCleanly?: boolean;
}

/** What the extension is told of a session: on start, on resume and on every (re)connect. */
export function sessionStart(s: Session): DaemonToExtensionFrame {
  return {
    type: 'session_start',
    sessionId: s.id,
    client: s.client,
    ...(s.project ? { project: s.project } : {}),
    ...(s.policy ? { policy: s.policy } : {}),
    ...(s.transactions ? { transactions: s.transactions } : {}),
    ...(s.resume.count > 0 ? { resume: s.resume } : {}),
    ...(s.settings ? { settings: s.settings } : {}),
  };
}

export interface Registration {
  client: ClientInfo;
  project: string | undefined;
  sessionKey: string | undefined;
  policy: OriginPolicy | undefined;
  transactions: TransactionLimits | undefined;
  settings?: SessionSettings | undefined;
}

/**
 * The stable key of a session: the key the client passed, else its project (from MCP roots).
 * Prefixed so an explicit key can never be mistaken for a project path.
 */
export function sessionKeyOf(sessionKey: string | undefined, project: string | undefined) {
  if (sessionKey !== undefined) return `key:${sessionKey}`;
  return project === undefined ? undefined : `project:${project}`;
}

/**
 * The daemon's sessions. A session outlives its server connection by a grace period, so a
 * server restarted with the same key takes back the same session (and its tabs). A key held by
 * a live server is never taken over: a second client with it gets a session of its own.
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
      const session: Session = {
        ...saved,
        transactions: saved.transactions,
        resume: saved.resume ?? { count: 0 },
        conn: undefined,
        graceTimer: undefined,
        lostAt: Date.now(),
        resumingSince: undefined,
      };
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
              transactions: s.transactions,
              resume: s.resume,
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

  /** A new session, or the keyed one taken back when its server is gone. */
  bind(
    conn: ServerConnection,
    r: Registration,
  ): { session: Session; resumed: boolean; cutOff: boolean } {
    const key = sessionKeyOf(r.sessionKey, r.project);
    const existing =
      key === undefined ? undefined : [...this.#sessions.values()].find((s) => s.key === key);
    if (existing?.conn === undefined && existing !== undefined) {
      clearTimeout(existing.graceTimer);
      existing.graceTimer = undefined;
      existing.conn = conn;
      existing.client = r.client;
      existing.project = r.project ?? existing.project;
      existing.transactions = r.transactions ?? existing.transactions;
      existing.settings = r.settings ?? existing.settings;
      const now = Date.now();
      existing.resume = {
        ...existing.resume,
        count: existing.resume.count + 1,
        ...(existing.lostAt === undefined ? {} : { downtimeMs: now - existing.lostAt }),
      };
      existing.lostAt = undefined;
      existing.resumingSince = now;
      const cutOff = existing.leftCleanly !== true;
      existing.leftCleanly = false;
      this.#persist();
      return { session: existing, resumed: true, cutOff };
    }
    const session: Session = {
      id: randomUUID(),
      // The key's holder is alive: this client is another agent, not its restart.
      key: existing === undefined ? key : undefined,
      client: r.client,
      project: r.project,
      policy: r.policy,
      transactions: r.transactions,
      settings: r.settings,
      conn,
      graceTimer: undefined,
      resume: { count: 0 },
      lostAt: undefined,
      resumingSince: undefined,
    };
    this.#sessions.set(session.id, session);
    this.#persist();
    return { session, resumed: false, cutOff: false };
  }

  /** The session's server announced a clean close (a `bye` frame). */
  leftCleanly(conn: ServerConnection): void {
    const session = [...this.#sessions.values()].find((s) => s.conn === conn);
    if (session) session.leftCleanly = true;
  }

  /** The extension answered a call of this session: a resume in progress is complete. */
  answered(sessionId: string): Session | undefined {
    const session = this.#sessions.get(sessionId);
    if (session?.resumingSince === undefined) return undefined;
    session.resume = { ...session.resume, lastMs: Date.now() - session.resumingSince };
    session.resumingSince = undefined;
    this.#persist();
    return session;
  }

  /** The server went away: the session waits `graceMs` for it (at once without a key). */
  release(conn: ServerConnection): Session | undefined {
    const session = [...this.#sessions.values()].find((s) => s.conn === conn);
    if (!session) return undefined;
    session.conn = undefined;
    session.lostAt = Date.now();
    session.resumingSince = undefined;
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
