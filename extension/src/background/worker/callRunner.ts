/**
 * One request from the daemon, from its arrival to its answer: the live log, the permission
 * gate's clock, ask-before-submit and the irreversible-action gate around the call, the loads the
 * origin guard refused meanwhile, and the recording step after the answer left.
 */
import {
  DEFAULT_TOOL_TIMEOUT_MS,
  findContract,
  type RequestFrame,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { Dispatcher, PendingResponse } from '../dispatcher';
import type { Permissions } from '../approvals/permissions';
import type { BlockedLoads } from '../guard/blockedLoads';
import { reportBlocked } from '../guard/reportBlocked';
import type { Activity } from '../panel/activity';
import type { PanelHub } from '../panel/panelHub';
import type { Recorder } from '../recording/recorder';
import type { SessionStore } from '../sessionStore';
import type { TabStates } from '../tabStates';
import { hideTypedInAnswer } from '../recorders/answerSecrets';
import { loadSettings } from '../settings';
import { hostOf } from '../../shared/callSentence';
import { friendlyClientName } from '../../shared/clientNames';

export interface CallRunnerDeps {
  store: SessionStore;
  activity: Activity;
  panels: PanelHub;
  dispatcher: Dispatcher;
  permissions: Permissions;
  blocked: BlockedLoads;
  recorder: Recorder;
  tabStates: TabStates;
  sessionsChanged(): void;
}

export class CallRunner {
  readonly #deps: CallRunnerDeps;
  /** Calls of each session between their request and their response, for overlay answers. */
  readonly #running = new Map<string, number>();

  constructor(deps: CallRunnerDeps) {
    this.#deps = deps;
  }

  /** How many calls of the session are between their request and their response. */
  running(sessionId: string): number {
    return this.#running.get(sessionId) ?? 0;
  }

  async run(frame: RequestFrame, reply: (frame: WorkerToRelayFrame) => void): Promise<void> {
    const { store, activity, panels, dispatcher, permissions, blocked, recorder } = this.#deps;
    const record = await store.get(frame.sessionId);
    const entry = activity.started(
      frame,
      record ? friendlyClientName(record.client.name) : frame.sessionId.slice(0, 8),
    );
    // The page the call starts on, for "Clicked … on github.com" and the irreversible gate below:
    // asked once, as the call arrives (tabs.get is answered before the call's own commands
    // change the page). One lookup, started first: it waited 4–10 ms on a browser busy with the
    // last call's tab, and was asked twice in a row (session 14's hop trace).
    const tabId = record?.currentTabId;
    const startTab =
      tabId === undefined
        ? Promise.resolve(undefined)
        : chrome.tabs.get(tabId).catch(() => undefined);
    void startTab.then((tab) => {
      if (tab !== undefined) entry.host = hostOf(tab.url);
    });
    // The hub holds live-log entries until no response is about to leave (panelHub.ts).
    panels.broadcast({ kind: 'activity', entry });
    if (record) record.lastActivity = entry.startedAt;
    this.#deps.sessionsChanged();
    const startedAt = Date.now();
    // The call stays cancellable until its answer is ready, question about a held submit included.
    const life = dispatcher.keep(frame);
    // A call that arrives with no other call of its session queued or running: its tab's URL as
    // Chrome gave it now is the one the permission gate judges (no second lookup).
    const arrival =
      tabId !== undefined && this.running(frame.sessionId) === 0
        ? { tabId, url: startTab.then((tab) => tab?.url) }
        : undefined;
    const run = (): Promise<PendingResponse> => dispatcher.call(frame, arrival);
    const limitMs = frame.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const { gate } = permissions;
    const deadline = gate.callStarted(frame.sessionId, limitMs);
    this.#running.set(frame.sessionId, this.running(frame.sessionId) + 1);
    let pending: PendingResponse;
    try {
      const secret = (await loadSettings()).askBeforeSecretSubmit;
      const guarded = (
        why: string | undefined,
        work: () => Promise<PendingResponse>,
      ): Promise<PendingResponse> =>
        record !== undefined && (secret || why !== undefined)
          ? permissions.guards.guardCall(
              {
                sessionId: record.sessionId,
                tabIds: record.tabIds,
                client: friendlyClientName(record.client.name),
                limitMs,
                secret,
                irreversible: why !== undefined,
                why,
                allowedOnce: () => gate.allowedOnce(record.sessionId),
                signal: life.signal,
              },
              work,
            )
          : work();
      // A call that only reads submits nothing of its own. Where only a sensitive site could
      // arm the guards (autonomous, no secret question), it starts at once and they are armed
      // once Chrome names the tab, for the rest of the call (#26: every snapshot and tab list
      // waited for that lookup, 9–15 ms on a browser busy with a tab it just opened or closed).
      // A call answered before that was never armed, as if it had come a moment later.
      const startsAtOnce =
        record !== undefined &&
        !secret &&
        onlyReads(frame.action, frame.params) &&
        (await gate.modeOf(record)) === 'autonomous';
      if (startsAtOnce) {
        const running = run();
        const named = await Promise.race([
          startTab.then((tab) => ({ url: tab?.url })),
          running.then(
            () => undefined,
            () => undefined,
          ),
        ]);
        const why =
          named === undefined ? undefined : await gate.irreversibleGate(record, named.url);
        pending = await guarded(why, () => running);
      } else {
        const tabUrl = (await startTab)?.url;
        const why = record === undefined ? undefined : await gate.irreversibleGate(record, tabUrl);
        pending = await guarded(why, run);
      }
    } finally {
      life.end();
      gate.callEnded(frame.sessionId, deadline);
      const left = (this.#running.get(frame.sessionId) ?? 1) - 1;
      if (left > 0) this.#running.set(frame.sessionId, left);
      else this.#running.delete(frame.sessionId);
    }
    reportBlocked(
      pending.response,
      (record?.tabIds ?? []).flatMap((id) => blocked.since(id, startedAt)),
    );
    // Rendered once, after every step added its section; what was typed into secret fields is
    // hidden in all of it, for the agent and the panel's log alike.
    const response = hideTypedInAnswer(pending.render(), this.#deps.tabStates.typedSecrets());
    // The answer goes first: the panel's activity update would otherwise be handled before it.
    reply(response);
    const finished = activity.finished(response);
    if (finished) {
      panels.broadcast({ kind: 'activity', entry: finished });
      // The session's setting (off in launch mode unless configured) beats the panel's.
      const recordSteps = record?.settings?.recordSteps ?? (await loadSettings()).recordSteps;
      if (recorder.records(finished) && recordSteps) recorder.keep(finished);
    }
    this.#deps.sessionsChanged();
  }
}

/** Whether the call only reads: a read-only tool, or one whose arguments make it one (a list). */
function onlyReads(action: string, params: unknown): boolean {
  const contract = findContract(action);
  if (contract === undefined) return false;
  if (contract.annotations.readOnlyHint) return true;
  if (contract.readsOnlyWhen === undefined) return false;
  const parsed = contract.input.safeParse(params);
  return parsed.success && contract.readsOnlyWhen(parsed.data);
}
