import { checkOrigin, checkRemoteAddress, type OriginPolicy } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { isResponseStage, RESPONSE_BODY_PATTERNS } from '../recorders/responseBodies';
import { continueRouted } from '../routing/routes';

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
  /** True for a request the extension answers itself (TabState.servedOrigin). */
  servedHere: (url: string) => boolean = () => false,
): OriginGuard {
  cdp.on('Fetch.requestPaused', (event, sessionId) => {
    // Response-stage pauses are the network recorder's (response bodies); other Request-stage
    // pauses (while browser_route has routes) are the router's (routing/routes.ts).
    if (isResponseStage(event) || event.resourceType !== 'Document') return;
    if (sessionId === undefined && servedHere(event.request.url)) return;
    const verdict = checkOrigin(policy(), event.request.url);
    const done = verdict.allowed
      ? continueRouted(cdp, event, sessionId)
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
  // A public name can resolve to a private address (DNS rebinding, or a name in /etc/hosts).
  // The address is known only once the response arrives, so the first request has been sent
  // by then; the frame is sent to about:blank before the agent can read it.
  cdp.on('Network.responseReceived', (event, sessionId) => {
    if (event.type !== 'Document' || event.frameId === undefined) return;
    const verdict = checkRemoteAddress(
      policy(),
      event.response.url,
      event.response.remoteIPAddress,
    );
    if (verdict.allowed) return;
    onBlocked({ url: event.response.url, reason: verdict.reason, at: Date.now() });
    cdp
      .send('Page.navigate', { url: 'about:blank', frameId: event.frameId }, sessionId)
      .catch(() => undefined);
  });
  /**
   * Frames that loaded before the guard was on (a popup's about:blank document that wrote an
   * iframe before the popup was adopted) are sent to about:blank, so they never reach a
   * snapshot. Their first request has been sent by then.
   */
  const sweep = async (sessionId: string | undefined, withRoot: boolean): Promise<void> => {
    const { frameTree } = await cdp.send('Page.getFrameTree', undefined, sessionId);
    const visit = async (node: Protocol.Page.FrameTree): Promise<void> => {
      const url = `${node.frame.url}${node.frame.urlFragment ?? ''}`;
      const verdict = checkOrigin(policy(), url);
      if (!verdict.allowed) {
        onBlocked({ url, reason: verdict.reason, at: Date.now() });
        await cdp
          .send('Page.navigate', { url: 'about:blank', frameId: node.frame.id }, sessionId)
          .catch(() => undefined);
        return;
      }
      await Promise.all((node.childFrames ?? []).map(visit));
    };
    // The tab's own document is the backstop's (worker.enforcePolicy): it may be the user's.
    // An out-of-process iframe's session has the frame itself at its root.
    if (withRoot) await visit(frameTree);
    else await Promise.all((frameTree.childFrames ?? []).map(visit));
  };
  return {
    enableTab: async () => {
      await cdp.send('Fetch.enable', { patterns: [DOCUMENTS, ...RESPONSE_BODY_PATTERNS] });
      await sweep(undefined, false).catch(() => undefined);
    },
    enableChild: async (sessionId) => {
      await Promise.all([
        cdp.send('Fetch.enable', { patterns: [DOCUMENTS] }, sessionId),
        cdp.send('Network.enable', {}, sessionId),
      ]);
      await sweep(sessionId, true).catch(() => undefined);
    },
  };
}
