import { watchRenderer } from './recovery/rendererWatch';
import { hasCrashed } from './recovery/crashWatch';
import { replaceTab } from './recovery/replaceTab';
import {
  BridgeError,
  DEFAULT_TOOL_TIMEOUT_MS,
  ErrorCode,
  parseRelayToWorker,
  serializeFrame,
  type RelayToWorkerFrame,
  type RequestFrame,
  type ApprovalScope,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { CdpClient } from './cdp';
import { captureConsole } from './recorders/consoleCapture';
import { DebuggerHub } from './debuggerHub';
import { Dispatcher, type PendingResponse } from './dispatcher';
import { showOverlay } from './overlay';
import { SessionContexts } from './sessionContext';
import { SessionStore, type SessionRecord } from './sessionStore';
import { TabStates } from './tabStates';
import { attachHooks, createHandlers, sectionSteps } from './tools';
import { TransactionServices } from './transactions';
import { Activity } from './panel/activity';
import { PanelHub } from './panel/panelHub';
import { Controls } from './controls';
import { BackgroundRelay } from './panel/backgroundRelay';
import { sessionViews, type PermissionFacts } from './panel/sessionViews';
import { loadSettings, saveSettings } from './settings';
import { installOriginGuard, type BlockedLoad } from './guard/originGuard';
import { reportBlocked } from './guard/reportBlocked';
import {
  checkOrigin,
  reportedTab,
  SESSION_TABS_EVENT,
  SESSION_TABS_MAX,
} from '@browser-agent/protocol';
import { BlockedLoads } from './guard/blockedLoads';
import { PopupGuard } from './popupGuard/popupGuard';
import { Permissions } from './approvals/permissions';
import { installDownloadGate } from './approvals/downloadGate';
import type { PanelToWorker, WorkerToPanel } from '../shared/messages';
import { hostOf } from '../shared/callSentence';
import { friendlyClientName } from '../shared/clientNames';
import { Recorder } from './recording/recorder';
import { BusyClock } from './busyClock';

const STOP_ALL_REASON = 'the user stopped every agent in the Browser Agent side panel';
const STOP_ALL_HINT = 'Wait for the user to resume this agent in the side panel, or ask them to.';

import { applySessionEmulation } from './emulation/sessionEmulation.js';

/** How recent a guard refusal must be to explain a tab showing a blocked URL. */
const GUARDED_LOAD_WINDOW_MS = 30_000;
const BLOCKED_TAB_CLOSE_DELAY_MS = 300;

/** Coalesces bursts of changes into one sessions broadcast to the panels. */
const SESSIONS_BROADCAST_DELAY_MS = 50;
/** Coalesces bursts of tab changes into one report of each session's tabs to the daemon. */
const TABS_REPORT_DELAY_MS = 200;

/** The service worker's object graph; rebuilt from storage.session after every restart. */
export class Worker {
  readonly store = new SessionStore();
  readonly tabStates = new TabStates();
  /** Loads the origin policy refused, per tab, for the tool results that caused them. */
  readonly blocked = new BlockedLoads();
  readonly hub = new DebuggerHub((tabId, cdp) => this.#onAttach(tabId, cdp));
  readonly contexts = new SessionContexts(
    this.store,
    this.hub,
    this.tabStates,
    () => this.sessionsChanged(),
    (openerTabId, load) => this.blocked.record(openerTabId, load),
  );
  readonly activity = new Activity();
  /** The origin policy for popups, before they exist (declarativeNetRequest). */
  readonly popups = new PopupGuard(this.store);
  /** Issue #19: permission modes, site grants, and every question to the user. */
  readonly permissions = new Permissions({
    cdpFor: (tabId) => this.hub.attach(tabId),
    record: (sessionId) => this.store.get(sessionId),
    records: () => this.store.all(),
    settings: loadSettings,
    questionsChanged: (questions) => {
      this.panels.broadcast({ kind: 'questions', questions });
      // The panel may be closed: the toolbar button shows that a question waits there.
      void chrome.action.setBadgeText({ text: questions.length > 0 ? '?' : '' });
      // Each agent card shows its pending question.
      this.sessionsChanged();
    },
    permissionsChanged: () => {
      void this.#broadcastPermissions();
      this.sessionsChanged();
    },
    toDaemon: () => this.#toDaemon,
  });
  /** Ask-before-submit and the irreversible-action gate (the tabs' submit guards). */
  readonly approvals = this.permissions.guards;
  readonly #permissionFacts: PermissionFacts = {
    modeOf: (record) => this.permissions.gate.modeOf(record),
    questionOf: (sessionId) => this.permissions.questions.of(sessionId),
  };
  /** Calls of each session between their request and their response, for overlay answers. */
  readonly #running = new Map<string, number>();
  readonly panels = new PanelHub(
    (message, reply) => void this.#onPanelMessage(message, reply),
    (send) => void this.#greetPanel(send),
  );
  readonly controls = new Controls(this.store, this.hub, this.tabStates, () =>
    this.sessionsChanged(),
  );
  readonly background = new BackgroundRelay(
    (frame, reply) => this.onRelayFrame(frame, reply),
    (state, detail) =>
      this.panels.broadcast({
        kind: 'link',
        state,
        detail: `${detail} The service worker holds the link, so agents keep working with the panel closed.`,
      }),
  );
  readonly transactions = new TransactionServices();
  readonly dispatcher: Dispatcher = new Dispatcher(
    createHandlers(
      {
        manager: this.transactions.manager,
        sideEffects: this.transactions.sideEffects,
        // The dispatcher's own validated path, for browser_batch's steps.
        invoke: () => (tool, args, ctx) => this.dispatcher.invokeTool(tool, args, ctx),
      },
      {
        approveScript: (handler) => this.approvals.guardScript(handler),
        permit: (contract, handler) => this.permissions.gate.wrap(contract, handler),
      },
    ),
    async (sessionId, clock, signal) =>
      this.contexts.create(await this.#usableSession(sessionId), clock, signal),
    this.transactions.beforeCall,
    sectionSteps,
    (sessionId, signal) =>
      watchRenderer(
        {
          currentTab: async () => {
            const tabId = (await this.store.get(sessionId))?.currentTabId;
            if (tabId === undefined || !this.hub.isAttached(tabId)) return undefined;
            const state = this.tabStates.get(tabId);
            return {
              tabId,
              cdp: this.hub.client(tabId),
              dialogOpen: () => state.dialog !== undefined,
              crashed: () => hasCrashed(state),
            };
          },
          urlOf: async (tabId) => {
            const tab = await chrome.tabs.get(tabId).catch(() => undefined);
            return tab?.url ?? tab?.pendingUrl ?? '';
          },
          navigationPending: async (tabId) =>
            Boolean((await chrome.tabs.get(tabId).catch(() => undefined))?.pendingUrl),
          replaceTab: (tabId) =>
            replaceTab(
              {
                store: this.store,
                hub: this.hub,
                tabStates: this.tabStates,
                changed: () => this.sessionsChanged(),
              },
              sessionId,
              tabId,
            ),
        },
        signal,
      ),
  );
  readonly recorder = new Recorder({
    contextFor: async (sessionId, signal) => {
      const record = await this.store.get(sessionId);
      return record && record.state !== 'revoked'
        ? this.contexts.create(record, new BusyClock(), signal)
        : undefined;
    },
    screenshot: (ctx, args) => this.dispatcher.invokeTool('browser_take_screenshot', args, ctx),
    changed: (sessionId) => this.panels.broadcast({ kind: 'recording', sessionId }),
  });
  #broadcastTimer: ReturnType<typeof setTimeout> | undefined;
  /** The way back to the daemon through the link that sent the latest frame. */
  #toDaemon: ((frame: WorkerToRelayFrame) => void) | undefined;
  #tabsTimer: ReturnType<typeof setTimeout> | undefined;
  /** The tab list last reported per session, so an unchanged one is not sent again. */
  readonly #reportedTabs = new Map<string, string>();

  /** A frame from the relay (panel-held or worker-held); answers go back through `reply`. */
  onRelayFrame(frame: RelayToWorkerFrame, reply: (frame: WorkerToRelayFrame) => void): void {
    this.#toDaemon = reply;
    switch (frame.type) {
      case 'request':
        void this.#runRequest(frame, reply);
        return;
      case 'session_start':
        // A (re)connected daemon knows nothing of this session's tabs yet.
        this.#reportedTabs.delete(frame.sessionId);
        void this.store
          .upsert(frame.sessionId, frame.client, frame.project, frame.policy, frame.settings)
          .then(() =>
            this.transactions.manager.configure(frame.sessionId, frame.transactions, frame.resume),
          )
          .then(() => {
            this.sessionsChanged();
            // Its admin lists, if its server read an admin file, show in the panel.
            void this.#broadcastPermissions();
          });
        // Its server may have restarted: it learns its open question again, to elicit it.
        this.permissions.announceAll();
        return;
      case 'approval_answer':
        this.permissions.answerFromClient(
          frame.sessionId,
          frame.questionId,
          frame.allow,
          frame.scope,
        );
        return;
      case 'session_end':
        void this.#endSession(frame.sessionId);
        return;
      case 'cancel':
        this.dispatcher.cancel(frame.id, frame.reason ?? 'cancelled');
        return;
      case 'ping':
        reply({ type: 'pong', t: frame.t });
        return;
    }
  }

  async overlayFor(tabId: number): Promise<string | null> {
    const owner = await this.store.ownerOf(tabId);
    return owner && owner.state !== 'revoked' ? friendlyClientName(owner.client.name) : null;
  }

  /** Starts the worker-held link when the user asked agents to keep working without the panel. */
  async applySettings(): Promise<void> {
    const settings = await loadSettings();
    if (settings.keepWorkingWhenPanelClosed) this.background.start(settings.bridgePort);
    else this.background.stop('The side panel holds the link.');
  }

  /**
   * The network guard stops blocked loads in attached tabs; a popup can start loading before it
   * is attached, so a leased tab that still lands on a blocked origin is closed at once.
   */
  async enforcePolicy(tabId: number, url: string): Promise<void> {
    const owner = await this.store.ownerOf(tabId);
    const verdict = checkOrigin(owner?.policy, url);
    if (!owner || verdict.allowed) return;
    // A load the guard refused leaves its URL on Chrome's error page: nothing slipped through.
    if (this.blocked.since(tabId, Date.now() - GUARDED_LOAD_WINDOW_MS).some((b) => b.url === url))
      return;
    this.blocked.record(owner.currentTabId ?? tabId, {
      url,
      reason: verdict.reason,
      at: Date.now(),
    });
    await this.contexts.forgetTab(tabId);
    // Deferred like a blocked popup's close (see SessionContexts.adoptPopup): it is out of the
    // lease already, so the agent cannot see it meanwhile.
    setTimeout(
      () => void chrome.tabs.remove(tabId).catch(() => undefined),
      BLOCKED_TAB_CLOSE_DELAY_MS,
    );
  }

  /** A closed tab leaves no per-tab records behind. */
  async tabClosed(tabId: number): Promise<void> {
    this.transactions.sideEffects.forget(tabId);
    this.blocked.forget(tabId);
    await this.contexts.forgetTab(tabId);
  }

  /** Keeps leases in step with tab groups the user rearranged by hand. */
  async leaseFollowsGroup(tabId: number, groupId: number): Promise<void> {
    const owner = await this.store.ownerOf(tabId);
    const groupOwner =
      groupId === chrome.tabGroups.TAB_GROUP_ID_NONE
        ? undefined
        : await this.store.ownerOfGroup(groupId);
    if (groupOwner && groupOwner !== owner && groupOwner.state !== 'revoked')
      await this.controls.adopt(groupOwner, tabId);
    else if (owner && !groupOwner && owner.groupId !== undefined)
      await this.controls.release(tabId);
  }

  /**
   * Tells the daemon each session's tabs (for `browser-agent-mcp doctor`), a moment after they
   * may have changed: a lease, a navigation, a title. Only changed lists are sent.
   */
  tabsMayHaveChanged(): void {
    clearTimeout(this.#tabsTimer);
    this.#tabsTimer = setTimeout(() => void this.#reportTabs(), TABS_REPORT_DELAY_MS);
  }

  async #reportTabs(): Promise<void> {
    const toDaemon = this.#toDaemon;
    if (!toDaemon) return;
    const records = await this.store.all();
    const live = new Set(records.map((r) => r.sessionId));
    for (const id of this.#reportedTabs.keys()) if (!live.has(id)) this.#reportedTabs.delete(id);
    for (const r of records) {
      const tabs = await Promise.all(
        r.tabIds.slice(0, SESSION_TABS_MAX).map(async (tabId) => {
          const tab = await chrome.tabs.get(tabId).catch(() => undefined);
          return reportedTab({ tabId, url: tab?.url ?? '', title: tab?.title ?? '' });
        }),
      );
      const key = JSON.stringify(tabs);
      if (this.#reportedTabs.get(r.sessionId) === key) continue;
      try {
        toDaemon({
          type: 'event',
          sessionId: r.sessionId,
          event: SESSION_TABS_EVENT,
          data: { tabs },
        });
        this.#reportedTabs.set(r.sessionId, key);
      } catch {
        // No link right now; the next session_start asks again.
      }
    }
  }

  sessionsChanged(): void {
    this.popups.refresh();
    this.tabsMayHaveChanged();
    clearTimeout(this.#broadcastTimer);
    // The view reads every tab back from Chrome; with no panel open nobody would see it, and a
    // panel that connects is greeted with a fresh one.
    if (!this.panels.connected) return;
    this.#broadcastTimer = setTimeout(() => {
      void this.store.all().then(async (records) => {
        this.panels.broadcast({
          kind: 'sessions',
          sessions: await sessionViews(
            records,
            this.dispatcher.busySessions(),
            this.transactions.manager,
            this.activity,
            this.#permissionFacts,
          ),
        });
      });
    }, SESSIONS_BROADCAST_DELAY_MS);
  }

  async #runRequest(
    frame: RequestFrame,
    reply: (frame: WorkerToRelayFrame) => void,
  ): Promise<void> {
    const record = await this.store.get(frame.sessionId);
    const entry = this.activity.started(
      frame,
      record ? friendlyClientName(record.client.name) : frame.sessionId.slice(0, 8),
    );
    // The page the call starts on, for "Clicked … on github.com"; not awaited, so the call does
    // not wait for it (tabs.get is answered before the call's own commands change the page).
    const tabId = record?.currentTabId;
    if (tabId !== undefined)
      void chrome.tabs.get(tabId).then(
        (tab) => (entry.host = hostOf(tab.url)),
        () => undefined,
      );
    // The hub holds live-log entries until no response is about to leave (panelHub.ts).
    this.panels.broadcast({ kind: 'activity', entry });
    if (record) record.lastActivity = entry.startedAt;
    this.sessionsChanged();
    const startedAt = Date.now();
    const run = (): Promise<PendingResponse> => this.dispatcher.call(frame);
    const limitMs = frame.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const { gate } = this.permissions;
    const deadline = gate.callStarted(frame.sessionId, limitMs);
    this.#running.set(frame.sessionId, (this.#running.get(frame.sessionId) ?? 0) + 1);
    let pending: PendingResponse;
    try {
      const secret = (await loadSettings()).askBeforeSecretSubmit;
      const tabUrl =
        record?.currentTabId === undefined
          ? undefined
          : (await chrome.tabs.get(record.currentTabId).catch(() => undefined))?.url;
      const why = record === undefined ? undefined : await gate.irreversibleGate(record, tabUrl);
      pending =
        record !== undefined && (secret || why !== undefined)
          ? await this.approvals.guardCall(
              {
                sessionId: record.sessionId,
                tabIds: record.tabIds,
                client: friendlyClientName(record.client.name),
                limitMs,
                secret,
                irreversible: why !== undefined,
                why,
                allowedOnce: () => gate.allowedOnce(record.sessionId),
              },
              run,
            )
          : await run();
    } finally {
      gate.callEnded(frame.sessionId, deadline);
      const left = (this.#running.get(frame.sessionId) ?? 1) - 1;
      if (left > 0) this.#running.set(frame.sessionId, left);
      else this.#running.delete(frame.sessionId);
    }
    reportBlocked(pending.response, this.#blockedDuring(record, startedAt));
    // Rendered once, after every step added its section.
    const response = pending.render();
    // The answer goes first: the panel's activity update would otherwise be handled before it.
    reply(response);
    const finished = this.activity.finished(response);
    if (finished) {
      this.panels.broadcast({ kind: 'activity', entry: finished });
      if (this.recorder.records(finished) && (await loadSettings()).recordSteps)
        this.dispatcher.inTurn(finished.sessionId, () => this.recorder.step(finished));
    }
    this.sessionsChanged();
  }

  /** The panel's "Stop all agents": every session paused, every call of theirs cancelled. */
  async stopAll(): Promise<void> {
    const records = await this.store.all();
    for (const r of records) if (r.state === 'active') r.state = 'paused';
    await this.store.save();
    for (const r of records)
      this.dispatcher.cancelSession(r.sessionId, STOP_ALL_REASON, STOP_ALL_HINT);
    this.sessionsChanged();
  }

  #blockedDuring(record: SessionRecord | undefined, since: number): BlockedLoad[] {
    return (record?.tabIds ?? []).flatMap((tabId) => this.blocked.since(tabId, since));
  }

  /** PAUSED and REVOKED are decided here, in the extension, where the user's controls live. */
  async #usableSession(sessionId: string): Promise<SessionRecord> {
    const record = await this.store.get(sessionId);
    if (!record) {
      throw new BridgeError(
        ErrorCode.SESSION_ENDED,
        `Session ${sessionId} is not known to the extension.`,
        'Restart the MCP client to start a new session.',
      );
    }
    if (record.state === 'paused') {
      throw new BridgeError(
        ErrorCode.PAUSED,
        'The user paused this agent in the Browser Agent side panel.',
        'Wait for the user to resume, or ask them to; then retry.',
      );
    }
    if (record.state === 'revoked') {
      throw new BridgeError(
        ErrorCode.REVOKED,
        "The user revoked this agent's access in the Browser Agent side panel.",
        'Stop using the browser; the user has to start a new session.',
      );
    }
    return record;
  }

  async #onPanelMessage(message: PanelToWorker, reply: (m: WorkerToPanel) => void): Promise<void> {
    switch (message.kind) {
      case 'frame': {
        const parsed = parseRelayToWorker(message.text);
        if (!parsed.ok) return;
        this.onRelayFrame(parsed.frame, (frame) =>
          reply({ kind: 'frame', text: serializeFrame(frame) }),
        );
        return;
      }
      case 'control':
        await this.controls.apply(message.action, message.sessionId);
        return;
      case 'submit_answer':
        this.permissions.answer(message.id, message.allow, message.scope);
        return;
      case 'set_mode':
        await this.permissions.gate.setMode(message.sessionId, message.mode);
        return;
      case 'grant':
        await this.permissions.grants.add(message.site, message.client);
        return;
      case 'revoke_grant':
        await this.permissions.grants.revoke(message.site, message.client);
        return;
      case 'stop_all':
        await this.stopAll();
        return;
      case 'settings': {
        const settings = await saveSettings(message.settings);
        this.panels.broadcast({ kind: 'settings', settings });
        if (message.settings.sensitiveSites !== undefined) await this.#broadcastPermissions();
        await this.applySettings();
        return;
      }
    }
  }

  async #greetPanel(send: (m: WorkerToPanel) => void): Promise<void> {
    send({ kind: 'settings', settings: await loadSettings() });
    send({ kind: 'questions', questions: this.permissions.questions.all() });
    send({ kind: 'permissions', permissions: await this.permissions.view() });
    send({ kind: 'activity_all', entries: this.activity.all() });
    send({
      kind: 'sessions',
      sessions: await sessionViews(
        await this.store.all(),
        this.dispatcher.busySessions(),
        this.transactions.manager,
        this.activity,
        this.#permissionFacts,
      ),
    });
    if (this.background.running)
      send({
        kind: 'link',
        state: this.background.state,
        detail: 'The service worker holds the link.',
      });
  }

  async #broadcastPermissions(): Promise<void> {
    if (!this.panels.connected) return;
    this.panels.broadcast({ kind: 'permissions', permissions: await this.permissions.view() });
  }

  /** Allow / Deny on a tab's overlay; refused while the agent has another call running. */
  answerFromOverlay(
    tabId: number,
    message: { id: string; allow: boolean; scope: ApprovalScope },
  ): void {
    const question = this.permissions.questions.get(message.id);
    const busy = question === undefined ? 0 : (this.#running.get(question.sessionId) ?? 0);
    this.permissions.answerFromOverlay(tabId, message.id, message.allow, message.scope, busy);
  }

  async #onAttach(tabId: number, cdp: CdpClient): Promise<void> {
    const state = this.tabStates.get(tabId);
    captureConsole(cdp, state);
    await Promise.all([
      cdp.send('Page.enable'),
      cdp.send('Runtime.enable'),
      cdp.send('Log.enable'),
    ]);
    const owner = await this.store.ownerOf(tabId);
    const guard = owner?.policy
      ? installOriginGuard(
          cdp,
          () => owner.policy,
          (load) => this.blocked.record(tabId, load),
          (url) => state.servedOrigin !== undefined && url.startsWith(`${state.servedOrigin}/`),
        )
      : undefined;
    // Every tab: its Fetch patterns (RESPONSE_BODY_PATTERNS) pause each document response.
    installDownloadGate(cdp, {
      tabId,
      owner: () => this.store.ownerOf(tabId),
      gate: this.permissions.gate,
      questions: this.permissions.questions,
      clientName: (record) => friendlyClientName(record.client.name),
    });
    // Before the hooks: auto-attaching child frames (a hook) already needs it.
    state.guardChild = guard === undefined ? undefined : (id) => guard.enableChild(id);
    for (const hook of attachHooks) await hook({ tabId, cdp, state });
    await this.transactions.sideEffects.watch(tabId, cdp);
    // Emulation rather than resizing the window: the window is the user's, and may hold other tabs.
    await applySessionEmulation(cdp, owner?.settings);
    await guard?.enableTab();
    const client = await this.overlayFor(tabId);
    if (client !== null) showOverlay(tabId, client, this.permissions.overlayQuestion(tabId));
  }

  /** The agent's tabs are closed, or released to the user, as the user's setting says. */
  async #endSession(sessionId: string): Promise<void> {
    const record = await this.store.remove(sessionId);
    await this.transactions.manager.forget(sessionId);
    await this.permissions.gate.forget(sessionId);
    if (!record) return;
    const { onSessionEnd } = await loadSettings();
    await this.controls.releaseTabs(record, onSessionEnd === 'close');
    this.sessionsChanged();
  }
}
