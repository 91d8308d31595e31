/**
 * Permission modes (issue #19): before a state-changing call runs, decides whether the user is
 * asked, and asks. Read-only tools (annotations.readOnlyHint) never reach it.
 *
 * - `ask`: every state-changing call asks, unless the user allowed "the rest of this task".
 * - `per-site`: the first state-changing call on a site that is not granted asks; "Allow on
 *   this site" is remembered (siteGrants.ts).
 * - `autonomous`: nothing is asked here.
 * - Whatever the mode, a call on a sensitive site asks first (sensitiveSites.ts); only "once"
 *   or "the rest of this task on this site" may answer it, never a remembered grant.
 * - Sites an admin blocked, or left out of an admin allow list, fail with BLOCKED_URL.
 *
 * "The rest of this task" lasts until the session ends, or until the agent makes no call for
 * TASK_IDLE_MS (the user has likely moved on to another task).
 */
import {
  BridgeError,
  ErrorCode,
  siteMatches,
  TASK_IDLE_MS,
  type AdminSites,
  type ApprovalScope,
  type PermissionMode,
  type ToolContract,
  type ToolName,
} from '@browser-agent/protocol';
import type { Settings } from '../../shared/messages';
import { sessionArea } from '../../shared/storageAreas';
import type { Handler, HandlerContext } from '../handlerContext';
import type { SessionRecord } from '../sessionStore';
import type { ApprovalQuestions } from './approvalQuestions';
import { actionUrls } from './actionSites';
import { siteOf, type SiteGrants } from './siteGrants';
import { unanswered } from './submitApprovals';
import { refuseWhileAsked } from './openQuestionGuard';
import { describeTarget } from './questionTarget';
import { friendlyClientName } from '../../shared/clientNames';

/** The answer must reach the agent before its call's own deadline does. */
export const ANSWER_MARGIN_MS = 1_500;
const MODES_KEY = 'permissionModes';
/** Task approvals that cover every site that is not sensitive. */
const ANY_SITE = '*';

export interface GateDeps {
  questions: ApprovalQuestions;
  grants: SiteGrants;
  record(sessionId: string): Promise<SessionRecord | undefined>;
  settings(): Promise<Settings>;
  /** Admin lists from chrome.storage.managed, beside those the session's server sent. */
  managedSites(): Promise<AdminSites | undefined>;
  modesChanged(): void;
}

export class PermissionGate {
  readonly #deps: GateDeps;
  /** The panel's choice per session, in storage.session (it outlives a worker restart). */
  #modes: Promise<Map<string, PermissionMode>> | undefined;
  readonly #task = new Map<string, { sites: Set<string>; lastCall: number }>();
  /** Answer deadlines of each session's calls, oldest (the running one) first. */
  readonly #deadlines = new Map<string, number[]>();
  /** Sessions whose running call the user allowed by name: its irreversible step is not re-asked. */
  readonly #allowedOnce = new Set<string>();

  constructor(deps: GateDeps) {
    this.#deps = deps;
  }

  async modeOf(record: SessionRecord): Promise<PermissionMode> {
    const chosen = (await this.#loadModes()).get(record.sessionId);
    return (
      chosen ??
      record.settings?.permissionMode ??
      (await this.#deps.settings()).defaultPermissionMode
    );
  }

  async setMode(sessionId: string, mode: PermissionMode): Promise<void> {
    const modes = await this.#loadModes();
    modes.set(sessionId, mode);
    await sessionArea().set({ [MODES_KEY]: Object.fromEntries(modes) });
    this.#deps.modesChanged();
  }

  /** A call starts: its questions must be answered by the returned deadline. */
  callStarted(sessionId: string, limitMs: number): number {
    const deadline = Date.now() + limitMs - ANSWER_MARGIN_MS;
    this.#deadlines.set(sessionId, [...(this.#deadlines.get(sessionId) ?? []), deadline]);
    const task = this.#task.get(sessionId);
    if (task !== undefined) {
      if (Date.now() - task.lastCall > TASK_IDLE_MS) this.#task.delete(sessionId);
      else task.lastCall = Date.now();
    }
    return deadline;
  }

  callEnded(sessionId: string, deadline: number): void {
    const left = (this.#deadlines.get(sessionId) ?? []).filter((d) => d !== deadline);
    if (left.length > 0) this.#deadlines.set(sessionId, left);
    else this.#deadlines.delete(sessionId);
    this.#allowedOnce.delete(sessionId);
  }

  /** The earliest deadline of the session's running calls, if any runs. */
  deadlineOf(sessionId: string): number | undefined {
    return this.#deadlines.get(sessionId)?.[0];
  }

  allowedOnce(sessionId: string): boolean {
    return this.#allowedOnce.has(sessionId);
  }

  async forget(sessionId: string): Promise<void> {
    this.#task.delete(sessionId);
    this.#allowedOnce.delete(sessionId);
    const modes = await this.#loadModes();
    if (modes.delete(sessionId))
      await sessionArea().set({ [MODES_KEY]: Object.fromEntries(modes) });
  }

  /**
   * Whether the agent may act on `url` now without a question or a refusal: not admin-blocked,
   * not sensitive, and granted or approved as its mode needs. Routes serve a document of the
   * agent's own making only there (routing/routes.ts): elsewhere its script would act with the
   * user's cookies on a site the user was to be asked about.
   */
  async actsFreely(record: SessionRecord, url: string): Promise<boolean> {
    try {
      await this.#checkAdmin(record, url);
    } catch {
      return false;
    }
    return (await this.#needsAsking(record, siteOf(url), url)) === undefined;
  }

  async #firstSensitive(urls: readonly string[]): Promise<string | undefined> {
    for (const url of urls) if (await this.isSensitive(url)) return url;
    return undefined;
  }

  /** Whether the tab's page is on the user's sensitive list. */
  async isSensitive(url: string | undefined): Promise<boolean> {
    const parsed = parseUrl(url);
    if (parsed === undefined) return false;
    const { sensitiveSites } = await this.#deps.settings();
    return sensitiveSites.some((p) => siteMatches(p, parsed));
  }

  /**
   * Whether the guards should hold irreversible-looking actions during this session's call: in
   * every mode but autonomous, and in autonomous on a sensitive site.
   */
  async irreversibleGate(
    record: SessionRecord,
    tabUrl: string | undefined,
  ): Promise<string | undefined> {
    const mode = await this.modeOf(record);
    if (mode !== 'autonomous') return `This agent's mode is "${mode}".`;
    if (await this.isSensitive(tabUrl)) return `${hostOf(tabUrl)} is on your sensitive-sites list.`;
    return undefined;
  }

  /** The registry loop wraps every state-changing tool's handler with this. */
  wrap<N extends ToolName>(contract: ToolContract, handler: Handler<N>): Handler<N> {
    return async (args, ctx) => {
      // A call that only reads (browser_tabs list) passes as a read-only tool's would.
      if (contract.readsOnlyWhen?.(args) === true) return handler(args, ctx);
      await this.#check(contract, args, ctx);
      return handler(args, ctx);
    };
  }

  async #check(contract: ToolContract, args: unknown, ctx: HandlerContext): Promise<void> {
    const record = await this.#deps.record(ctx.sessionId);
    if (record === undefined) return;
    const tab = await ctx.currentTab().catch(() => undefined);
    refuseWhileAsked(this.#deps.questions, tab?.tabId ?? record.currentTabId);
    // The URL Chrome gave as the call arrived, when nothing of the session's ran since (#26:
    // the call runner's lookup and this one were two round trips for one answer).
    const tabUrl =
      tab === undefined
        ? Promise.resolve(undefined)
        : (ctx.arrivalUrl?.(tab.tabId) ??
          chrome.tabs.get(tab.tabId).then(
            (t) => t.url,
            () => undefined,
          ));
    // Every document the call touches is judged (actionSites.ts): a frame, a cookie's site. The
    // frames are looked up while Chrome answers for the tab (#26: two round trips in turn, 2–5 ms
    // on the first action after a page loaded).
    const touched = await actionUrls(args, ctx, tabUrl, contract.inputAt);
    for (const url of touched.all) await this.#checkAdmin(record, url);
    const target = (await this.#firstSensitive(touched.all)) ?? touched.primary;
    const site = siteOf(target);
    if (site === undefined) {
      // No site to act on yet (a blank tab): only `ask` asks.
      if ((await this.modeOf(record)) !== 'ask') return;
    }
    const ask = await this.#needsAsking(record, site, target);
    if (ask === undefined) return;
    const deadline = this.#deadlines.get(ctx.sessionId)?.[0] ?? Date.now();
    const client = friendlyClientName(record.client.name);
    const about = await describeTarget(contract, args, tab, site, record.settings?.secretDigests);
    const { verdict, scope } = await this.#deps.questions.ask(
      tab?.tabId ?? record.currentTabId ?? -1,
      {
        kind: 'action',
        sessionId: record.sessionId,
        client,
        targetOrigin: site ?? '',
        fields: [],
        text: `Let ${client} ${about.phrase}?`,
        why: ask.why,
        scopes: ask.scopes,
        ...(about.highlight === undefined ? {} : { highlight: about.highlight }),
      },
      deadline,
      ctx.signal,
    );
    if (verdict === 'timeout')
      throw unanswered(`whether to let it ${contract.title.toLowerCase()}; it did not run`);
    if (verdict === 'deny') {
      throw new BridgeError(
        ErrorCode.USER_DENIED,
        `The user denied this ${contract.name} call${site ? ` on ${site}` : ''}; it did not run.`,
        'Do not retry it another way. Ask the user what they want instead, or ask them to allow it in the Browser Agent side panel when you retry.',
      );
    }
    await this.#remember(record, scope, site, ask.sensitive);
  }

  async #needsAsking(
    record: SessionRecord,
    site: string | undefined,
    target: string | undefined,
  ): Promise<{ why: string; scopes: ApprovalScope[]; sensitive: boolean } | undefined> {
    const task = this.#task.get(record.sessionId)?.sites;
    if (site !== undefined && (await this.isSensitive(target))) {
      if (task?.has(site)) return undefined;
      return {
        why: `${hostOf(target)} is on your sensitive-sites list: agents always ask first there.`,
        scopes: ['once', 'task'],
        sensitive: true,
      };
    }
    if (task?.has(ANY_SITE)) return undefined;
    const mode = await this.modeOf(record);
    if (mode === 'ask')
      return {
        why: 'You set this agent to ask before each action.',
        scopes: ['once', 'task'],
        sensitive: false,
      };
    if (mode === 'per-site' && site !== undefined) {
      if (await this.#deps.grants.has(record.client.name, site)) return undefined;
      return {
        why: `Its first action on ${hostOf(target)}; it has no permission for this site yet.`,
        scopes: ['once', 'site', 'task'],
        sensitive: false,
      };
    }
    return undefined;
  }

  async #remember(
    record: SessionRecord,
    scope: ApprovalScope,
    site: string | undefined,
    sensitive: boolean,
  ): Promise<void> {
    if (scope === 'once') {
      this.#allowedOnce.add(record.sessionId);
      return;
    }
    if (scope === 'site' && site !== undefined && !sensitive) {
      await this.#deps.grants.add(site, record.client.name);
      return;
    }
    const key = sensitive && site !== undefined ? site : ANY_SITE;
    const task = this.#task.get(record.sessionId) ?? { sites: new Set(), lastCall: Date.now() };
    task.sites.add(key);
    this.#task.set(record.sessionId, task);
  }

  async #checkAdmin(record: SessionRecord, target: string | undefined): Promise<void> {
    const url = parseUrl(target);
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
    const lists = [record.settings?.adminSites, await this.#deps.managedSites()];
    for (const admin of lists) {
      if (admin === undefined) continue;
      const blocked = admin.block?.some((p) => siteMatches(p, url)) === true;
      const outside = admin.allow !== undefined && !admin.allow.some((p) => siteMatches(p, url));
      if (!blocked && !outside) continue;
      throw new BridgeError(
        ErrorCode.BLOCKED_URL,
        `${url.host} is ${blocked ? 'blocked' : 'not on the allowed list'} set by your administrator (${admin.source}).`,
        'Do not try to reach it another way. Tell the user; only their administrator can change this.',
      );
    }
  }

  #loadModes(): Promise<Map<string, PermissionMode>> {
    this.#modes ??= sessionArea()
      .get(MODES_KEY)
      .then(
        (items) =>
          new Map(
            Object.entries((items[MODES_KEY] as Record<string, PermissionMode> | undefined) ?? {}),
          ),
        () => new Map(),
      );
    return this.#modes;
  }
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function hostOf(url: string | undefined): string {
  return parseUrl(url)?.host ?? 'this page';
}
