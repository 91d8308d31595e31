import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { SessionRecord, SessionStore } from '../sessionStore';

/** PAUSED and REVOKED are decided here, in the extension, where the user's controls live. */
export async function usableSession(
  store: SessionStore,
  sessionId: string,
): Promise<SessionRecord> {
  const record = await store.get(sessionId);
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
