import type { CdpClient, CdpCommand, CdpParams } from '../cdp';
import type { Press, TabState } from '../tabStates';

export type { Press } from '../tabStates';

/**
 * The tab's latest press during a call (from `since` to `until`, its end). The capture of a step
 * can run after the next call began (it yields to it), so a press after `until` is that call's,
 * not this step's.
 */
export function pressDuring(state: TabState, since: number, until: number): Press | undefined {
  const press = state.lastPress;
  return press !== undefined && press.at >= since && press.at <= until ? press : undefined;
}

/**
 * The same client, noting where each press of the mouse lands in the tab's own frame (clicks,
 * double clicks, the start of a drag): every input tool sends its presses through here, so the
 * recording knows where to draw its marker without each tool reporting it.
 */
export function notingPresses(cdp: CdpClient, state: TabState): CdpClient {
  return {
    send: <M extends CdpCommand>(method: M, params?: CdpParams<M>, sessionId?: string) => {
      if (method === 'Input.dispatchMouseEvent' && sessionId === undefined) {
        const p = params as { type?: string; x?: number; y?: number } | undefined;
        if (p?.type === 'mousePressed' && p.x !== undefined && p.y !== undefined)
          state.lastPress = { x: p.x, y: p.y, at: Date.now() };
      }
      return cdp.send(method, params, sessionId);
    },
    on: (event, listener) => cdp.on(event, listener),
  };
}
