import { checkOrigin, type OriginPolicy } from '@browser-agent/protocol';
import type { CdpClient } from './cdp';
import { isResponseStage, RESPONSE_BODY_PATTERNS } from './recorders/responseBodies';

export interface BlockedLoad {
  url: string;
  reason: string;
  at: number;
}

const DOCUMENTS = { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' } as const;

export interface OriginGuard {
  /** Enables interception on the tab's own session (after the recorders' own Fetch.enable). */
  enableTab(): Promise<void>;
  /** Enables it in a child target's session (an out-of-process iframe) while it is paused. */
  enableChild(sessionId: string): Promise<void>;
}

/**
 * Enforces a session's origin policy on every document request of a tab and of each of its
 * out-of-process iframes: navigations, redirects (each hop is a request of its own), JS location
 * changes and frames. Blocked loads fail in the network stack, so the frame never renders and
 * the agent never sees it. The listener is in place before any session is enabled, so no paused
 * request is ever missed (a missed one would hang its frame).
 */
export function installOriginGuard(
  cdp: CdpClient,
  policy: () => OriginPolicy | undefined,
  onBlocked: (load: BlockedLoad) => void,
): OriginGuard {
  cdp.on('Fetch.requestPaused', (event, sessionId) => {
    // Response-stage pauses are the network recorder's (response bodies), not documents.
    if (isResponseStage(event)) return;
    const verdict = checkOrigin(policy(), event.request.url);
    const done = verdict.allowed
      ? cdp.send('Fetch.continueRequest', { requestId: event.requestId }, sessionId)
      : cdp.send(
          'Fetch.failRequest',
          { requestId: event.requestId, errorReason: 'BlockedByClient' },
          sessionId,
        );
    if (!verdict.allowed)
      onBlocked({ url: event.request.url, reason: verdict.reason, at: Date.now() });
    // The request may have been cancelled meanwhile (tab closed, navigation superseded).
    done.catch(() => undefined);
  });
  return {
    enableTab: async () => {
      await cdp.send('Fetch.enable', { patterns: [DOCUMENTS, ...RESPONSE_BODY_PATTERNS] });
    },
    enableChild: async (sessionId) => {
      await cdp.send('Fetch.enable', { patterns: [DOCUMENTS] }, sessionId);
    },
  };
}
