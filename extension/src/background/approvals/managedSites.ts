/**
 * An admin's site lists through Chrome's policy for this extension (chrome.storage.managed, keys
 * `allowSites` and `blockSites`; see managed_schema.json and docs/permissions.md).
 *
 * Chrome does not always answer. Seen on Chromium 156 (headless, new profile): the first read
 * after a start hangs and one sent a moment later answers, and in some browser starts no read
 * is ever answered (20 s and more). Every state-changing call reads the lists, so a read that
 * hung held every call of every agent (the e2e "bridge" spec, CI). Now a read is sent again while
 * it hangs, an answer is kept until Chrome says the policy changed, and when Chrome keeps silent
 * the lists last read in this profile apply (kept in the local area, shared/storageAreas.ts); a
 * profile that never got an answer has none to apply (docs/security.md, "Admin lists"), nor has
 * an isolated launch's context at its start: its local area is its worker's memory.
 */
import { adminSitesSchema, type AdminSites } from '@browser-agent/protocol';
import { localArea } from '../../shared/storageAreas';
import { delay } from '../common/timing';

/** A call waits this long for Chrome's first answer, then goes on with the last lists read. */
const FIRST_WAIT_MS = 3_000;
/** While no answer has come, another read is sent this often. */
const RESEND_MS = 1_000;
/** The local area: the lists of the last answer (null: the policy set none). */
export const LAST_READ_KEY = 'managedSitesLastRead';

export interface ManagedSitesDeps {
  read: () => Promise<Record<string, unknown>>;
  loadLast: () => Promise<AdminSites | undefined>;
  saveLast: (lists: AdminSites | undefined) => Promise<void>;
  warn: (message: string) => void;
}

const chromeDeps: ManagedSitesDeps = {
  read: () => chrome.storage.managed.get(['allowSites', 'blockSites']),
  loadLast: async () => {
    const items = await localArea()
      .get(LAST_READ_KEY)
      .catch(() => ({}));
    const parsed = adminSitesSchema.safeParse((items as Record<string, unknown>)[LAST_READ_KEY]);
    return parsed.success ? parsed.data : undefined;
  },
  saveLast: (lists) => localArea().set({ [LAST_READ_KEY]: lists ?? null }),
  warn: (message) => console.warn(message),
};

/** The parsed lists, or undefined when the policy sets none (or sets them unreadably). */
export function parseManagedSites(items: Record<string, unknown>): AdminSites | undefined {
  const allow = items['allowSites'];
  const block = items['blockSites'];
  if (allow === undefined && block === undefined) return undefined;
  const parsed = adminSitesSchema.safeParse({
    ...(Array.isArray(allow) ? { allow } : {}),
    ...(Array.isArray(block) ? { block } : {}),
    source: 'Chrome policy for Browser Agent',
  });
  return parsed.success ? parsed.data : undefined;
}

/** The lists as Chrome last answered, read again once Chrome says the policy changed. */
export class ManagedSites {
  readonly #deps: ManagedSitesDeps;
  readonly #firstWaitMs: number;
  readonly #resendMs: number;
  /** Chrome's answer, once one came (value undefined: no lists). */
  #known: { value: AdminSites | undefined } | undefined;
  #answered: Promise<void> | undefined;
  #sentAt = Number.NEGATIVE_INFINITY;
  /** A call already waited FIRST_WAIT_MS in vain: later ones do not wait again. */
  #silent = false;
  /** The browser's machine has no policy files: nothing to wait for (noPolicyFiles). */
  #noPolicyFiles = false;
  /** The lists last read in this profile, while Chrome has not answered. */
  #lastRead: Promise<AdminSites | undefined> | undefined;

  constructor(
    deps: ManagedSitesDeps = chromeDeps,
    firstWaitMs = FIRST_WAIT_MS,
    resendMs = RESEND_MS,
  ) {
    this.#deps = deps;
    this.#firstWaitMs = firstWaitMs;
    this.#resendMs = resendMs;
  }

  /** Starts a read ahead of the first call (the worker's start), so that call need not wait. */
  warm(): void {
    this.#send();
  }

  /**
   * The daemon that launched this browser found no browser policy files on its machine
   * (daemon/launch/policyFiles.ts), so Chrome has no lists to give: calls stop waiting for its
   * first answer, which comes only once Chrome counts its start-up complete (2–3 s after launch).
   * Reads still run, and Chrome's answer applies the moment it comes.
   */
  noPolicyFiles(): void {
    this.#noPolicyFiles = true;
  }

  /** Chrome's storage.onChanged for the `managed` area: the next get reads again. */
  changed(): void {
    this.#known = undefined;
    this.#answered = undefined;
    this.#lastRead = undefined;
    this.#sentAt = Number.NEGATIVE_INFINITY;
    this.#silent = false;
    // Chrome says the policy changed: there is one now, whatever the files said at launch.
    this.#noPolicyFiles = false;
  }

  async get(): Promise<AdminSites | undefined> {
    if (this.#known) return this.#known.value;
    this.#send();
    if (!this.#silent && !this.#noPolicyFiles) {
      const until = Date.now() + this.#firstWaitMs;
      while (!this.#hasAnswer() && Date.now() < until) {
        const wait = Math.min(this.#resendMs, until - Date.now());
        await Promise.race([this.#answered, delay(wait)]);
        this.#send();
      }
      const known = this.#answer();
      if (known !== undefined) return known.value;
      this.#silent = true;
      this.#deps.warn(
        `Chrome has not answered chrome.storage.managed for ${this.#firstWaitMs} ms: the admin site lists last read in this profile apply until it does.`,
      );
    }
    // Read once: only this class writes it, and only once Chrome answered (#26: a storage read
    // on every state-changing call in a launched browser, whose Chrome may never answer).
    this.#lastRead ??= this.#deps.loadLast().catch((err: unknown) => {
      this.#lastRead = undefined;
      throw err;
    });
    return this.#lastRead;
  }

  /** Methods, so the checks after an await are not narrowed away. */
  #answer(): { value: AdminSites | undefined } | undefined {
    return this.#known;
  }

  #hasAnswer(): boolean {
    return this.#answer() !== undefined;
  }

  /** A read, unless one was sent less than RESEND_MS ago; the first answer of any counts. */
  #send(): void {
    if (this.#known !== undefined || Date.now() - this.#sentAt < this.#resendMs) return;
    this.#sentAt = Date.now();
    const answered = this.#deps.read().then(
      async (items) => {
        if (this.#known !== undefined) return;
        const value = parseManagedSites(items);
        this.#known = { value };
        await this.#deps.saveLast(value).catch(() => undefined);
      },
      // No managed storage on this platform: no lists.
      () => {
        this.#known ??= { value: undefined };
      },
    );
    this.#answered =
      this.#answered === undefined ? answered : Promise.race([this.#answered, answered]);
  }
}
