/**
 * The document a target element lives in (issue #25). Site lists are judged on the frame an
 * action touches: a click on a button inside a bank's iframe, on an ordinary page, acts on the
 * bank with the user's cookies there. Found the way the element tools find the element (a ref's
 * recorded frame, or the page model's match in every frame), without acting on it. A point of
 * the viewport (the coordinate tools) is judged by the frame under it: the top frame's hit test
 * (DOM.getNodeForLocation) reaches into same-process iframes; an out-of-process iframe is hit as
 * its owner element, whose content frame is then found among the tab's child sessions. A point
 * inside an out-of-process iframe nested in another is judged by the outer one.
 */
import type { ElementTarget } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { TabHandle } from '../tabStates';
import type { FrameAddress } from '../page/wire';
import { matchesIn, queryFor } from './target';

/**
 * The URL of the frame the target is in: its http(s) URL, or for a frame without one of its
 * own (`about:blank`, `srcdoc`) the origin it inherited. Undefined when the target names no
 * single element (the tool itself then fails: not found, ambiguous) or its frame is gone.
 */
export async function targetFrameUrl(
  tab: TabHandle,
  target: ElementTarget,
): Promise<string | undefined> {
  const frame = await frameOf(tab, target).catch(() => undefined);
  return frame === undefined ? undefined : frameUrl(tab, frame);
}

async function frameOf(tab: TabHandle, target: ElementTarget): Promise<FrameAddress | undefined> {
  if (target.ref !== undefined) return tab.state.refsByRef.get(target.ref)?.world;
  const kind =
    target.selector !== undefined ? 'selector' : target.role !== undefined ? 'locator' : undefined;
  if (kind === undefined) return undefined;
  const { call, what } = queryFor(kind, target);
  const matches = await matchesIn(tab, call, what);
  const chosen =
    kind === 'locator' && target.nth !== undefined
      ? matches[target.nth]
      : matches.length === 1
        ? matches[0]
        : undefined;
  return chosen?.world;
}

async function frameUrl(tab: TabHandle, address: FrameAddress): Promise<string | undefined> {
  const { frameTree } = await tab.cdp.send('Page.getFrameTree', undefined, address.sessionId);
  const find = (node: Protocol.Page.FrameTree): Protocol.Page.Frame | undefined =>
    node.frame.id === address.frameId
      ? node.frame
      : (node.childFrames ?? []).map(find).find((f) => f !== undefined);
  return urlOfFrame(find(frameTree));
}

function urlOfFrame(frame: Protocol.Page.Frame | undefined): string | undefined {
  if (frame === undefined) return undefined;
  if (/^https?:/i.test(frame.url)) return frame.url;
  // about:blank and srcdoc documents run in the origin of whoever made them.
  const origin = frame.securityOrigin;
  return origin !== undefined && /^https?:/i.test(origin) ? `${origin}/` : undefined;
}

/**
 * The URL of the frame that has the keyboard's focus: the top document's focused element, and
 * when that is an iframe (same-process or not), the frame inside it. Focus inside an iframe
 * nested in another is judged by the outer one, as a point is.
 */
export async function focusedFrameUrl(tab: TabHandle): Promise<string | undefined> {
  try {
    const { result } = await tab.cdp.send('Runtime.evaluate', {
      expression: 'document.activeElement',
    });
    if (result.objectId === undefined) return undefined;
    const { node } = await tab.cdp.send('DOM.describeNode', { objectId: result.objectId });
    void tab.cdp
      .send('Runtime.releaseObject', { objectId: result.objectId })
      .catch(() => undefined);
    return await ownerOrTopFrameUrl(tab, node.frameId, undefined);
  } catch {
    return undefined;
  }
}

/** A frame owner's content frame (out of process: found among the child sessions), or `frameId`. */
async function ownerOrTopFrameUrl(
  tab: TabHandle,
  innerFrameId: string | undefined,
  frameId: string | undefined,
): Promise<string | undefined> {
  if (innerFrameId !== undefined) {
    for (const [sessionId, childFrameId] of tab.state.childFrames)
      if (childFrameId === innerFrameId) return frameUrl(tab, { sessionId, frameId: innerFrameId });
    const sameProcess = await frameUrl(tab, { sessionId: undefined, frameId: innerFrameId });
    if (sameProcess !== undefined) return sameProcess;
  }
  if (frameId !== undefined) return frameUrl(tab, { sessionId: undefined, frameId });
  return urlOfFrame((await tab.cdp.send('Page.getFrameTree')).frameTree.frame);
}

/** The URL of the frame at (x, y) in CSS pixels of the viewport; undefined if nothing is there. */
export async function pointFrameUrl(
  tab: TabHandle,
  x: number,
  y: number,
): Promise<string | undefined> {
  try {
    const hit = await tab.cdp.send('DOM.getNodeForLocation', {
      x: Math.round(x),
      y: Math.round(y),
      ignorePointerEventsNone: true,
    });
    const { node } = await tab.cdp.send('DOM.describeNode', { backendNodeId: hit.backendNodeId });
    // `frameId` on a node is set for frame owner elements only: the point is on an iframe whose
    // document the top frame's process cannot hit (out of process).
    return await ownerOrTopFrameUrl(tab, node.frameId, hit.frameId);
  } catch {
    return undefined;
  }
}
