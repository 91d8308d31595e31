import type { PanelToWorker, WorkerToPanel } from '../../shared/messages';
import { PANEL_PORT_NAME } from '../../shared/messages';

/**
 * Live-log entries and session views are held back and sent together, at moments when no call's
 * response is about to leave: each message wakes the panel's renderer, which lays it out and
 * paints it, and sent as a call ended (or, for a short call, as it started), that work ran in the
 * browser while the response was on its way out (bench:hops). They go LIVE_VIEW_QUIET_MS after the
 * last call ended with none running since; while calls keep coming, with the start of the first
 * call LIVE_VIEW_AT_START_MS after they began to wait; and after LIVE_VIEW_MAX_DELAY_MS at the
 * latest, so a long call shows as running. A burst of calls costs the panel about two renders a
 * second instead of two per call.
 */
export const LIVE_VIEW_QUIET_MS = 50;
export const LIVE_VIEW_AT_START_MS = 500;
export const LIVE_VIEW_MAX_DELAY_MS = 1000;

/** `sender` is the panel's page, already found to be ours (a hand-off checks more of it). */
export type PanelMessageHandler = (
  message: PanelToWorker,
  reply: (m: WorkerToPanel) => void,
  sender: chrome.runtime.MessageSender | undefined,
) => void;

/**
 * The panels (side panel, relay tab) connected to the worker over the one typed port. Only our
 * own extension pages may connect; every panel gets every broadcast (sessions, activity, link).
 */
export class PanelHub {
  readonly #ports = new Set<chrome.runtime.Port>();
  readonly #onMessage: PanelMessageHandler;
  readonly #onConnect: (send: (m: WorkerToPanel) => void) => void;
  /** Live views waiting for the next flush: the latest entry per call, the latest sessions. */
  readonly #pendingActivity = new Map<string, WorkerToPanel & { kind: 'activity' }>();
  #pendingSessions: (WorkerToPanel & { kind: 'sessions' }) | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest waiting update was queued. */
  #waitingSince: number | undefined;
  /** Calls whose started entry came and whose finished one did not yet. */
  readonly #running = new Set<string>();

  constructor(
    onMessage: PanelMessageHandler,
    onConnect: (send: (m: WorkerToPanel) => void) => void,
  ) {
    this.#onMessage = onMessage;
    this.#onConnect = onConnect;
  }

  accept(port: chrome.runtime.Port): void {
    if (port.name !== PANEL_PORT_NAME || !isOwnPage(port.sender)) {
      port.disconnect();
      return;
    }
    // The new panel's greeting is the current state; nothing older may arrive after it.
    this.#flush();
    this.#ports.add(port);
    const reply = (m: WorkerToPanel): void => {
      if (this.#ports.has(port)) port.postMessage(m);
    };
    port.onDisconnect.addListener(() => this.#ports.delete(port));
    port.onMessage.addListener((m: PanelToWorker) => this.#onMessage(m, reply, port.sender));
    this.#onConnect(reply);
  }

  /** Whether any panel would see a broadcast; views nobody sees need not be built. */
  get connected(): boolean {
    return this.#ports.size > 0;
  }

  /** Live-log entries and session views are coalesced (see LIVE_VIEW_QUIET_MS); the rest goes now. */
  broadcast(message: WorkerToPanel): void {
    if (message.kind === 'activity') {
      if (message.entry.outcome === undefined) this.#running.add(message.entry.id);
      else this.#running.delete(message.entry.id);
    }
    if (this.#ports.size === 0) return;
    const now = Date.now();
    if (message.kind === 'activity') {
      const { id, outcome } = message.entry;
      // The panel upserts by id: a call's finished entry makes its started one moot.
      this.#pendingActivity.delete(id);
      this.#pendingActivity.set(id, message);
      const starting = outcome === undefined && this.#waitingSince !== undefined;
      if (starting && now - (this.#waitingSince ?? now) >= LIVE_VIEW_AT_START_MS) {
        this.#flush();
        return;
      }
    } else if (message.kind === 'sessions') {
      this.#pendingSessions = message;
    } else {
      this.#send(message);
      return;
    }
    this.#waitingSince ??= now;
    const due =
      this.#running.size === 0
        ? Math.min(now + LIVE_VIEW_QUIET_MS, this.#waitingSince + LIVE_VIEW_MAX_DELAY_MS)
        : this.#waitingSince + LIVE_VIEW_MAX_DELAY_MS;
    clearTimeout(this.#flushTimer);
    this.#flushTimer = setTimeout(() => this.#flush(), Math.max(0, due - now));
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    this.#waitingSince = undefined;
    const pending = [...this.#pendingActivity.values(), this.#pendingSessions];
    this.#pendingActivity.clear();
    this.#pendingSessions = undefined;
    for (const message of pending) if (message) this.#send(message);
  }

  #send(message: WorkerToPanel): void {
    for (const port of this.#ports) port.postMessage(message);
  }
}

function isOwnPage(sender: chrome.runtime.MessageSender | undefined): boolean {
  if (!sender || sender.id !== chrome.runtime.id || sender.url === undefined) return false;
  return sender.url.startsWith(chrome.runtime.getURL('src/sidepanel/'));
}
