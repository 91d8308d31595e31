import type { PanelToWorker, WorkerToPanel } from '../shared/messages';
import { PANEL_PORT_NAME } from '../shared/messages';

/**
 * How long live-log entries and session views wait before they go to the panels. Each one wakes
 * the panel's renderer, which lays out and paints it; sent the moment a call ends, that work
 * competed with the call's own response on its way out of the browser (bench:hops). Late by this
 * much, a burst of calls also costs the panel one render instead of two per call.
 */
export const LIVE_VIEW_DELAY_MS = 100;

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

  /** Live-log entries and session views are coalesced (LIVE_VIEW_DELAY_MS); the rest goes now. */
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
    this.#flushTimer ??= setTimeout(() => this.#flush(), LIVE_VIEW_DELAY_MS);
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
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
