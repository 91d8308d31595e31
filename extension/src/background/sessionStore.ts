import type { ClientInfo, OriginPolicy, SessionSettings } from '@browser-agent/protocol';
import type { SessionState } from '../shared/messages';
import { sessionArea } from '../shared/storageAreas';

/** Tab-group colours, one per session in turn, so two agents' tabs never look alike. */
export const GROUP_COLORS = [
  'purple',
  'blue',
  'green',
  'orange',
  'pink',
  'cyan',
  'red',
  'yellow',
  'grey',
] as const;
export type GroupColor = (typeof GROUP_COLORS)[number];

export interface SessionRecord {
  sessionId: string;
  client: ClientInfo;
  project: string | undefined;
  /** Where the session's tabs may go; undefined means anywhere (but restricted URLs). */
  policy: OriginPolicy | undefined;
  settings?: SessionSettings | undefined;
  state: SessionState;
  /** Chrome tab group holding the session's tabs, once it has one. */
  groupId: number | undefined;
  color: GroupColor;
  lastActivity: number | undefined;
  /** Tabs the session owns, in the order browser_tabs lists them. */
  tabIds: number[];
  currentTabId: number | undefined;
  /** Paused by "Stop all agents", not by its own Pause: "Resume all" resumes exactly these. */
  stoppedByAll?: boolean | undefined;
  /** Revoked, and dismissed from the panel by the user; its calls still answer REVOKED. */
  dismissed?: boolean | undefined;
}

const STORAGE_KEY = 'sessions';

/**
 * The minimum state needed to carry on after the service worker restarts: which session owns
 * which tabs. Refs and console buffers are rebuilt (a stale ref then fails with STALE_REF).
 */
export class SessionStore {
  readonly #sessions = new Map<string, SessionRecord>();
  #colorCursor = 0;
  #loaded: Promise<void> | undefined;

  load(): Promise<void> {
    this.#loaded ??= sessionArea()
      .get(STORAGE_KEY)
      .then((items) => {
        const saved = items[STORAGE_KEY] as SessionRecord[] | undefined;
        for (const s of saved ?? []) this.#sessions.set(s.sessionId, s);
        this.#colorCursor = this.#sessions.size;
      });
    return this.#loaded;
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    await this.load();
    return this.#sessions.get(sessionId);
  }

  async upsert(
    sessionId: string,
    client: ClientInfo,
    project?: string,
    policy?: OriginPolicy,
    settings?: SessionSettings,
  ): Promise<SessionRecord> {
    await this.load();
    let s = this.#sessions.get(sessionId);
    if (!s) {
      const color = GROUP_COLORS[this.#colorCursor++ % GROUP_COLORS.length] ?? 'grey';
      s = {
        sessionId,
        client,
        project,
        policy,
        settings,
        state: 'active',
        groupId: undefined,
        color,
        lastActivity: undefined,
        tabIds: [],
        currentTabId: undefined,
      };
      this.#sessions.set(sessionId, s);
    } else {
      s.client = client;
      s.project = project ?? s.project;
      s.policy = policy ?? s.policy;
      s.settings = settings ?? s.settings;
    }
    await this.save();
    return s;
  }

  async remove(sessionId: string): Promise<SessionRecord | undefined> {
    await this.load();
    const s = this.#sessions.get(sessionId);
    this.#sessions.delete(sessionId);
    await this.save();
    return s;
  }

  async ownerOf(tabId: number): Promise<SessionRecord | undefined> {
    await this.load();
    for (const s of this.#sessions.values()) if (s.tabIds.includes(tabId)) return s;
    return undefined;
  }

  async ownerOfGroup(groupId: number): Promise<SessionRecord | undefined> {
    await this.load();
    for (const s of this.#sessions.values()) if (s.groupId === groupId) return s;
    return undefined;
  }

  async all(): Promise<SessionRecord[]> {
    await this.load();
    return [...this.#sessions.values()];
  }

  async save(): Promise<void> {
    await sessionArea().set({ [STORAGE_KEY]: [...this.#sessions.values()] });
  }
}
