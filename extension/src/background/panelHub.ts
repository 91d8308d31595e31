import type { PanelToWorker, WorkerToPanel } from '../shared/messages';
import { PANEL_PORT_NAME } from '../shared/messages';

/**
 * The panels (side panel, relay tab) connected to the worker over the one typed port. Only our
 * own extension pages may connect; every panel gets every broadcast (sessions, activity, link).
 */
export class PanelHub {
  readonly #ports = new Set<chrome.runtime.Port>();
  readonly #onMessage: (message: PanelToWorker, reply: (m: WorkerToPanel) => void) => void;
  readonly #onConnect: (send: (m: WorkerToPanel) => void) => void;

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
    this.#ports.add(port);
    const reply = (m: WorkerToPanel): void => {
      if (this.#ports.has(port)) port.postMessage(m);
    };
    port.onDisconnect.addListener(() => this.#ports.delete(port));
    port.onMessage.addListener((m: PanelToWorker) => this.#onMessage(m, reply));
    this.#onConnect(reply);
  }

  broadcast(message: WorkerToPanel): void {
    for (const port of this.#ports) port.postMessage(message);
  }
}

function isOwnPage(sender: chrome.runtime.MessageSender | undefined): boolean {
  if (!sender || sender.id !== chrome.runtime.id || sender.url === undefined) return false;
  return sender.url.startsWith(chrome.runtime.getURL('src/sidepanel/'));
}
