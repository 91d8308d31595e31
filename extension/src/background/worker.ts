/**
 * The service worker's object graph; rebuilt from storage.session after every restart (not in an
 * isolated launch's context, whose storage is the worker's memory: shared/storageAreas.ts). It wires:
 * each concern lives in its own file (worker/ for the worker's own parts), called here in one line.
 */
import {
  type ApprovalScope,
  type RelayToWorkerFrame,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import { DebuggerHub } from './debuggerHub';
import { Dispatcher } from './dispatcher';
import { SessionContexts } from './sessionContext';
import { SessionStore } from './sessionStore';
import { TabStates } from './tabStates';
import { attachHooks, createHandlers, sectionSteps } from './tools';
import { TransactionServices } from './transactions';
import { Activity } from './panel/activity';
import { PanelHub } from './panel/panelHub';
import { Controls } from './controls';
import { BackgroundRelay } from './panel/backgroundRelay';
import { sessionViews, type PermissionFacts } from './panel/sessionViews';
import { loadSettings } from './settings';
import { BlockedLoads } from './guard/blockedLoads';
import { PopupGuard } from './popupGuard/popupGuard';
import { Permissions } from './approvals/permissions';
import type { SessionView } from '../shared/messages';
import { judgeRoutesWith } from './routing/routes';
import { friendlyClientName } from '../shared/clientNames';
import { Recorder } from './recording/recorder';
import { BusyClock } from './busyClock';
import { attachTab } from './worker/attachTab';
import { CallRunner } from './worker/callRunner';
import { PanelMessages } from './worker/panelMessages';
import { enforcePolicy, leaseFollowsGroup } from './worker/tabEvents';
import { TabReports } from './worker/tabReports';
import { usableSession } from './worker/usableSession';
import { watchRendererOf } from './worker/watchRendererOf';
import { SpareTab } from './worker/spareTab';
import { resumeAllSessions, stopAllSessions } from './worker/stopAll';
import { rememberTypedSecret } from './recorders/requestSecrets';

/** A longer value told by a content script is no typed secret (a paste of a whole document). */
const MAX_TYPED_SECRET_CHARS = 1_024;

const STOP_ALL_REASON = 'the user stopped every agent in the Browser Agent side panel';
const STOP_ALL_HINT = 'Wait for the user to resume this agent in the side panel, or ask them to.';

/** Coalesces bursts of changes into one sessions broadcast to the panels. */
const SESSIONS_BROADCAST_DELAY_MS = 50;

export class Worker {
  readonly store = new SessionStore();
  readonly tabStates = new TabStates();
  /** Loads the origin policy refused, per tab, for the tool results that caused them. */
  readonly blocked = new BlockedLoads();
  readonly attachHooks = attachHooks;
  readonly hub: DebuggerHub = new DebuggerHub((tabId, cdp) => attachTab(this, tabId, cdp));
  /** A launched browser's startup tab, for the first session's first tab. */
  readonly spareTab = new SpareTab();
  readonly contexts = new SessionContexts(
    this.store,
    this.hub,
    this.tabStates,
    () => this.sessionsChanged(),
    (openerTabId, load) => this.blocked.record(openerTabId, load),
    this.spareTab,
  );
  readonly activity = new Activity();
  /** The origin policy for popups, before they exist (declarativeNetRequest). */
  readonly popups = new PopupGuard(this.store);
  /** Issue #19: permission modes, site grants, and every question to the user. */
  readonly permissions: Permissions = new Permissions({
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
      void this.panelMessages.broadcastPermissions();
      this.sessionsChanged();
    },
    toDaemon: () => this.#toDaemon,
  });
  /** Ask-before-submit and the irreversible-action gate (the tabs' submit guards). */
  readonly approvals = this.permissions.guards;
  /** What routes may serve (routing/routes.ts): only where the agent acts unasked. */
  readonly routeJudge = judgeRoutesWith(async (tabId, url) => {
    const owner = await this.store.ownerOf(tabId);
    return owner !== undefined && this.permissions.gate.actsFreely(owner, url);
  });
  readonly #permissionFacts: PermissionFacts = {
    modeOf: (record) => this.permissions.gate.modeOf(record),
    questionOf: (sessionId) => this.permissions.questions.of(sessionId),
  };
  readonly panels = new PanelHub(
    (message, reply, sender) => void this.panelMessages.onMessage(message, reply, sender),
    (send) => void this.panelMessages.greet(send),
  );
  readonly controls = new Controls(
    this.store,
    this.hub,
    this.tabStates,
    () => this.sessionsChanged(),
    (tabId) => this.permissions.questions.settledFor(tabId),
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
  readonly panelMessages = new PanelMessages({
    panels: this.panels,
    permissions: this.permissions,
    controls: this.controls,
    activity: this.activity,
    background: this.background,
    onRelayFrame: (frame, reply) => this.onRelayFrame(frame, reply),
    stopAll: () => this.stopAll(),
    resumeAll: () => this.resumeAll(),
    applySettings: () => this.applySettings(),
    sessionViews: () => this.#sessionViews(),
    spareTab: this.spareTab,
  });
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
    async (sessionId, clock, signal, arrival) =>
      this.contexts.create(await usableSession(this.store, sessionId), clock, signal, arrival),
    this.transactions.beforeCall,
    sectionSteps,
    (sessionId, signal) => watchRendererOf(this, sessionId, signal),
  );
  readonly recorder = new Recorder({
    contextFor: async (sessionId, signal) => {
      const record = await this.store.get(sessionId);
      return record && record.state !== 'revoked'
        ? this.contexts.create(record, new BusyClock(), signal)
        : undefined;
    },
    screenshot: (ctx, args) => this.dispatcher.invokeOwnTool('browser_take_screenshot', args, ctx),
    changed: (sessionId) => this.panels.broadcast({ kind: 'recording', sessionId }),
    busy: (sessionId): boolean => this.calls.running(sessionId) > 0,
  });
  readonly calls = new CallRunner(this);
  readonly tabReports = new TabReports(this.store, () => this.#toDaemon);
  #broadcastTimer: ReturnType<typeof setTimeout> | undefined;
  /** The way back to the daemon through the link that sent the latest frame. */
  #toDaemon: ((frame: WorkerToRelayFrame) => void) | undefined;

  /** A frame from the relay (panel-held or worker-held); answers go back through `reply`. */
  onRelayFrame(frame: RelayToWorkerFrame, reply: (frame: WorkerToRelayFrame) => void): void {
    this.#toDaemon = reply;
    switch (frame.type) {
      case 'request':
        void this.calls.run(frame, reply);
        return;
      case 'session_start':
        // A (re)connected daemon knows nothing of this session's tabs yet.
        this.tabReports.forget(frame.sessionId);
        void this.store
          .get(frame.sessionId)
          .then(async (known) => {
            // A daemon that reconnects starts its sessions again: only a new one is news.
            if (!known) this.#logSession(frame.sessionId, frame.client.name, 'connected');
            return this.store.upsert(
              frame.sessionId,
              frame.client,
              frame.project,
              frame.policy,
              frame.settings,
            );
          })
          .then(() =>
            this.transactions.manager.configure(frame.sessionId, frame.transactions, frame.resume),
          )
          .then(() => {
            this.sessionsChanged();
            // Its admin lists, if its server read an admin file, show in the panel.
            void this.panelMessages.broadcastPermissions();
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

  enforcePolicy(tabId: number, url: string): Promise<void> {
    return enforcePolicy(this, tabId, url);
  }

  /** A closed tab leaves no per-tab records behind. */
  async tabClosed(tabId: number): Promise<void> {
    // A question about a tab that is gone asks about nothing: it ends unanswered (a held
    // download then stays unsaved; Chrome dropped its response with the tab).
    this.permissions.questions.endForTab(tabId);
    this.transactions.sideEffects.forget(tabId);
    this.blocked.forget(tabId);
    await this.contexts.forgetTab(tabId);
  }

  leaseFollowsGroup(tabId: number, groupId: number): Promise<void> {
    return leaseFollowsGroup(this, tabId, groupId);
  }

  /** Each session's tabs go to the daemon a moment later (worker/tabReports.ts). */
  tabsMayHaveChanged(): void {
    this.tabReports.mayHaveChanged();
  }

  sessionsChanged(): void {
    this.popups.sessionsChanged();
    this.tabsMayHaveChanged();
    clearTimeout(this.#broadcastTimer);
    // The view reads every tab back from Chrome; with no panel open nobody would see it, and a
    // panel that connects is greeted with a fresh one.
    if (!this.panels.connected) return;
    this.#broadcastTimer = setTimeout(() => {
      void this.#sessionViews().then((sessions) =>
        this.panels.broadcast({ kind: 'sessions', sessions }),
      );
    }, SESSIONS_BROADCAST_DELAY_MS);
  }

  async #sessionViews(): Promise<SessionView[]> {
    return sessionViews(
      await this.store.all(),
      this.dispatcher.busySessions(),
      this.transactions.manager,
      this.activity,
      this.#permissionFacts,
    );
  }

  /** The panel's "Stop all agents": every session paused, every call of theirs cancelled. */
  async stopAll(): Promise<void> {
    const records = await this.store.all();
    stopAllSessions(records);
    await this.store.save();
    for (const r of records)
      this.dispatcher.cancelSession(r.sessionId, STOP_ALL_REASON, STOP_ALL_HINT);
    this.sessionsChanged();
  }

  /** The panel's "Resume all": the sessions Stop all paused act again (worker/stopAll.ts). */
  async resumeAll(): Promise<void> {
    resumeAllSessions(await this.store.all());
    await this.store.save();
    this.sessionsChanged();
  }

  /** Allow / Deny on a tab's overlay; refused while the agent has another call running. */
  answerFromOverlay(
    tabId: number,
    message: { id: string; allow: boolean; scope: ApprovalScope },
  ): void {
    const question = this.permissions.questions.get(message.id);
    const busy = question === undefined ? 0 : this.calls.running(question.sessionId);
    this.permissions.answerFromOverlay(tabId, message.id, message.allow, message.scope, busy);
  }

  /** A value typed into a secret field of the tab (content/secretTyping.ts), for tabs agents use. */
  secretTyped(tabId: number, value: string): void {
    const state = this.tabStates.peek(tabId);
    if (state === undefined || typeof value !== 'string') return;
    if (value.length > MAX_TYPED_SECRET_CHARS) return;
    rememberTypedSecret(state, value);
  }

  /** The live log's line for an agent that connected or left. */
  #logSession(sessionId: string, client: string, event: 'connected' | 'left'): void {
    const entry = this.activity.sessionEvent(sessionId, friendlyClientName(client), event);
    this.panels.broadcast({ kind: 'activity', entry });
  }

  /** The agent's tabs are closed, or released to the user, as the user's setting says. */
  async #endSession(sessionId: string): Promise<void> {
    // Its calls end with it, and so do the questions they asked (issue #25).
    this.dispatcher.cancelSession(sessionId, 'the session ended');
    const record = await this.store.remove(sessionId);
    if (record) this.#logSession(sessionId, record.client.name, 'left');
    await this.transactions.manager.forget(sessionId);
    await this.permissions.gate.forget(sessionId);
    if (!record) return;
    const { onSessionEnd } = await loadSettings();
    await this.controls.releaseTabs(record, onSessionEnd === 'close');
    this.sessionsChanged();
  }
}
