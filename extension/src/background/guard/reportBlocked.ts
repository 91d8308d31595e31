import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CallResponse } from '../callResponse';
import type { BlockedLoad } from './originGuard';

const HINT =
  "The session's origin policy (allowedOrigins / blockedOrigins in the server's settings) forbids it; use an allowed site.";

/**
 * Says in the tool's own response what the origin policy refused while it ran: a navigation that
 * failed because of it becomes BLOCKED_URL; a successful action gets a note (a redirect or popup
 * that was stopped).
 */
export function reportBlocked(response: CallResponse, blocked: BlockedLoad[]): void {
  const first = blocked[0];
  if (!first) return;
  if (response.failed) {
    const code = response.errorCode;
    if (code !== ErrorCode.NAVIGATION_FAILED && code !== ErrorCode.NAVIGATION_TIMEOUT) return;
    response.fail(
      new BridgeError(ErrorCode.BLOCKED_URL, `${first.url} is blocked: ${first.reason}.`, HINT),
    );
    return;
  }
  response.addText(blocked.map((b) => `Blocked: ${b.url} (${b.reason}).`).join('\n'));
}
