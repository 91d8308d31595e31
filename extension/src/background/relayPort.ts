import { ErrorCode, parseFrame, serializeFrame, type Frame } from '@browser-agent/protocol';
import { RELAY_PORT_NAME } from '../shared/messages';

export interface RelayHandlers {
  onFrame(frame: Frame, reply: (frame: Frame) => void): void;
}

/**
 * The one typed channel from the relay page (side panel or relay tab) into the worker. Frames
 * travel as the same JSON text as on the WebSocket, so the worker validates exactly what the
 * daemon sent. Only our own relay page may connect.
 */
export function acceptRelayPort(port: chrome.runtime.Port, handlers: RelayHandlers): void {
  if (port.name !== RELAY_PORT_NAME || !isOwnRelayPage(port.sender)) {
    port.disconnect();
    return;
  }
  let open = true;
  port.onDisconnect.addListener(() => {
    open = false;
  });
  const reply = (frame: Frame): void => {
    if (open) port.postMessage(serializeFrame(frame));
  };
  port.onMessage.addListener((message: unknown) => {
    if (typeof message !== 'string') {
      reply({
        type: 'error',
        error: { code: ErrorCode.INVALID_FRAME, message: 'Relay messages must be frame text.' },
      });
      return;
    }
    const parsed = parseFrame(message);
    if (!parsed.ok) {
      reply({ type: 'error', error: parsed.error });
      return;
    }
    handlers.onFrame(parsed.frame, reply);
  });
}

function isOwnRelayPage(sender: chrome.runtime.MessageSender | undefined): boolean {
  if (!sender || sender.id !== chrome.runtime.id || sender.url === undefined) return false;
  return sender.url.startsWith(chrome.runtime.getURL('src/sidepanel/'));
}
