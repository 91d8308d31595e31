import { ErrorCode, type ResponseFrame } from '@browser-agent/protocol';
import type { BlockedLoad } from './originGuard';

const HINT =
  "The session's origin policy (allowedOrigins / blockedOrigins in the server's settings) forbids it; use an allowed site.";

/**
 * Says in the tool's own result what the origin policy refused while it ran: a navigation that
 * failed because of it becomes BLOCKED_URL; a successful action gets a note (a redirect or popup
 * that was stopped).
 */
export function reportBlocked(response: ResponseFrame, blocked: BlockedLoad[]): ResponseFrame {
  const first = blocked[0];
  if (!first) return response;
  const lines = blocked.map((b) => `Blocked: ${b.url} (${b.reason}).`).join('\n');
  if (!response.payload.success) {
    if (
      response.payload.error.code !== ErrorCode.NAVIGATION_FAILED &&
      response.payload.error.code !== ErrorCode.NAVIGATION_TIMEOUT
    )
      return response;
    return {
      ...response,
      payload: {
        success: false,
        error: {
          code: ErrorCode.BLOCKED_URL,
          message: `${first.url} is blocked: ${first.reason}.`,
          hint: HINT,
        },
      },
    };
  }
  const data = response.payload.data as { content?: unknown[] } | undefined;
  if (!data || !Array.isArray(data.content)) return response;
  return {
    ...response,
    payload: {
      success: true,
      data: { ...data, content: [...data.content, { type: 'text', text: lines }] },
    },
  };
}
