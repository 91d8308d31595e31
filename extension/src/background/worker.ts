import type { Frame } from '@browser-agent/protocol';
import type { CdpClient } from './cdp';
import { captureConsole } from './consoleCapture';
import { DebuggerHub } from './debuggerHub';
import { Dispatcher } from './dispatcher';
import { showOverlay } from './overlay';
import { SessionContexts } from './sessionContext';
import { SessionStore } from './sessionStore';
import { TabStates } from './tabStates';
import { attachHooks, handlers } from './tools';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';

/** The service worker's object graph; rebuilt from storage.session after every restart. */
export class Worker {
  readonly store = new SessionStore();
  readonly tabStates = new TabStates();
  readonly hub = new DebuggerHub((tabId, cdp) => this.#onAttach(tabId, cdp));
  readonly contexts = new SessionContexts(this.store, this.hub, this.tabStates);
  readonly dispatcher = new Dispatcher(
    handlers,
    async (sessionId) => {
      const record = await this.store.get(sessionId);
      if (!record) {
        throw new BridgeError(
          ErrorCode.SESSION_ENDED,
          `Session ${sessionId} is not known to the extension.`,
          'Restart the MCP client to start a new session.',
        );
      }
      return this.contexts.create(record);
    },
    () => this.hub.cdpBusyMs,
  );

  onRelayFrame(frame: Frame, reply: (frame: Frame) => void): void {
    switch (frame.type) {
      case 'request':
        void this.dispatcher.dispatch(frame).then(reply);
        return;
      case 'session_start':
        void this.store.upsert(frame.sessionId, frame.client);
        return;
      case 'session_end':
        void this.#endSession(frame.sessionId);
        return;
      case 'ping':
        reply({ type: 'pong', t: frame.t });
        return;
      case 'hello':
      case 'welcome':
      case 'response':
      case 'event':
      case 'pong':
      case 'error':
        return;
    }
  }

  async overlayFor(tabId: number): Promise<string | null> {
    const owner = await this.store.ownerOf(tabId);
    return owner ? owner.client.name : null;
  }

  async #onAttach(tabId: number, cdp: CdpClient): Promise<void> {
    captureConsole(cdp, this.tabStates.get(tabId).console);
    await Promise.all([
      cdp.send('Page.enable'),
      cdp.send('Runtime.enable'),
      cdp.send('Log.enable'),
    ]);
    const client = await this.overlayFor(tabId);
    if (client !== null) showOverlay(tabId, client);
  }

  /** The agent opened these tabs, so they go with it; the user's own tabs are never touched. */
  async #endSession(sessionId: string): Promise<void> {
    const record = await this.store.remove(sessionId);
    for (const tabId of record?.tabIds ?? []) {
      await this.hub.detach(tabId);
      this.tabStates.delete(tabId);
      await chrome.tabs.remove(tabId).catch(() => undefined);
    }
  }
}
