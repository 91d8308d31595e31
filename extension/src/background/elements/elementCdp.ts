import type { CdpClient } from '../cdp';
import type { TabHandle } from '../tabStates';
import type { ElementHandle } from './resolveRef';

/**
 * CDP bound to the target an element lives in: the tab itself, or the child session of the
 * out-of-process iframe holding it. Node ids and object ids only mean something there; input
 * events still go to the tab, which routes them to the frame under the pointer.
 */
export function elementCdp(tab: TabHandle, element: ElementHandle): CdpClient {
  const sessionId = element.entry.sessionId;
  if (sessionId === undefined) return tab.cdp;
  return {
    send: (method, params) => tab.cdp.send(method, params, sessionId),
    on: tab.cdp.on.bind(tab.cdp),
  };
}
