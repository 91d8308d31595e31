import type { PanelToWorker, WorkerToPanel } from '../shared/messages';
import { PANEL_PORT_NAME } from '../shared/messages';

/**
 * Live-log entries and session views wait for a quiet moment before they go to the panels: each
 * one wakes the panel's renderer, which lays it out and paints it, and sent the moment a call
 * started or ended, that work ran in the browser while the call's response was on its way out
 * (bench:hops). They go once no update came for LIVE_VIEW_QUIET_MS, and never later than
 * LIVE_VIEW_MAX_DELAY_MS after the first one waited, so a burst of calls costs the panel one
 * render instead of two per call.
 */
export const LIVE_VIEW_QUIET_MS = 50;
export const LIVE_VIEW_MAX_DELAY_MS = 500;

/**
 * The panels (side panel, relay tab) connected to the worker over the one typed port. Only our
 * own extension pages may connect; every panel gets every broadcast (sessions, activity, link).
 */
export class PanelHub {
  readonly #ports = new Set<chrome.runtime.Port>();
  readonly #onMessage: (message: PanelToWorker, reply: (m: WorkerToPanel) => void) => void;
  readonly #onConnect: (send: (m: WorkerToPanel) => void) => void;
  /** Live views waiting for the next flush: the latest entry per call, the latest sessions. */
  readonly #pendingActivity = new Map<string, WorkerToPanel & { kind: 'activity' }>();
  #pendingSessions: (WorkerToPanel & { kind: 'sessions' }) | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest waiting update was queued. */
  #waitingSince: number | undefined;

  constructor(
    onMessage: (message: PanelToWorker, reply: (m: WorkerToPanel) => void) => void,
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
    port.onMessage.addListener((m: PanelToWorker) => this.#onMessage(m, reply));
    this.#onConnect(reply);
  }

  /** Whether any panel would see a broadcast; views nobody sees need not be built. */
  get connected(): boolean {
    return this.#ports.size > 0;
  }

  /** Live-log entries and session views are coalesced (see LIVE_VIEW_QUIET_MS); the rest goes now. */
  broadcast(message: WorkerToPanel): void {
    if (this.#ports.size === 0) return;
    if (message.kind === 'activity') {
      // The panel upserts by id: a call's finished entry makes its started one moot.
      this.#pendingActivity.delete(message.entry.id);
      this.#pendingActivity.set(message.entry.id, message);
    } else if (message.kind === 'sessions') {
      this.#pendingSessions = message;
    } else {
      this.#send(message);
      return;
    }
    const now = Date.now();
    this.#waitingSince ??= now;
    const wait = Math.min(LIVE_VIEW_QUIET_MS, this.#waitingSince + LIVE_VIEW_MAX_DELAY_MS - now);
    clearTimeout(this.#flushTimer);
    this.#flushTimer = setTimeout(() => this.#flush(), Math.max(0, wait));
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
