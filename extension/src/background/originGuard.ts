import { checkOrigin, type OriginPolicy } from '@browser-agent/protocol';
import type { CdpClient } from './cdp';
import { isResponseStage, RESPONSE_BODY_PATTERNS } from './recorders/responseBodies';

export interface BlockedLoad {
  url: string;
  reason: string;
  at: number;
}

/**
 * Enforces a session's origin policy on every document request of a tab: navigations, redirects
 * (each hop is a request of its own), JS location changes and frames. Blocked loads fail in the
 * network stack, so the page never renders and the agent never sees it.
 */
export async function guardDocuments(
  cdp: CdpClient,
  policy: () => OriginPolicy | undefined,
  onBlocked: (load: BlockedLoad) => void,
): Promise<void> {
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
  await cdp.send('Fetch.enable', {
    patterns: [
      { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' },
      ...RESPONSE_BODY_PATTERNS,
    ],
  });
}
