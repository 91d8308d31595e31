/**
 * The document a target element lives in (issue #25). Site lists are judged on the frame an
 * action touches: a click on a button inside a bank's iframe, on an ordinary page, acts on the
 * bank with the user's cookies there. Found the way the element tools find the element (a ref's
 * recorded frame, or the page model's match in every frame), without acting on it. A point of
 * the viewport (the coordinate tools) is judged by the frame under it: the top frame's hit test
 * (DOM.getNodeForLocation) reaches into same-process iframes; an out-of-process iframe is hit as
 * its owner element, and the point is tested again inside it (its child session), however deep.
 */
import type { ElementTarget } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { TabHandle } from '../tabStates';
import type { FrameAddress } from '../page/wire';
import { objectInFrame } from '../page/world';
import { matchesIn, queryFor } from './target';

/**
 * The URL of the frame the target is in: its http(s) URL, or for a frame without one of its
 * own (`about:blank`, `srcdoc`) the origin it inherited. Undefined when the target names no
 * single element (the tool itself then fails: not found, ambiguous) or its frame is gone.
 */
export async function targetFrameUrl(
  tab: TabHandle,
  target: ElementTarget,
  /** The tab's URL as Chrome answers it (chrome.tabs.get), on its way. */
  tabUrl: Promise<string | undefined>,
): Promise<string | undefined> {
  const frame = await frameOf(tab, target).catch(() => undefined);
  if (frame === undefined) return undefined;
  // An element of the tab's top document: its URL is the tab's (Chrome's last committed URL of
  // the main frame), so no frame tree is read (#26: 1.5–2 ms on every click and type by ref).
  // A top document without an http(s) URL (about:blank a page opened) runs in its opener's
  // origin, which only the frame tree names.
  if (frame.sessionId === undefined && frame.frameId === tab.state.mainFrameId) {
    const url = await tabUrl;
    if (url !== undefined && /^https?:/i.test(url)) return url;
  }
  return frameUrl(tab, frame);
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
  return urlOfFrame(findFrame(frameTree, address.frameId));
}

function findFrame(
  node: Protocol.Page.FrameTree,
  frameId: string,
): Protocol.Page.Frame | undefined {
  if (node.frame.id === frameId) return node.frame;
  for (const child of node.childFrames ?? []) {
    const found = findFrame(child, frameId);
    if (found !== undefined) return found;
  }
  return undefined;
}

function urlOfFrame(frame: Protocol.Page.Frame | undefined): string | undefined {
  if (frame === undefined) return undefined;
  if (/^https?:/i.test(frame.url)) return frame.url;
  // about:blank and srcdoc documents run in the origin of whoever made them.
  const origin = frame.securityOrigin;
  return origin !== undefined && /^https?:/i.test(origin) ? `${origin}/` : undefined;
}

/** How deep iframes are followed for the focus and for a point (pages nest a few at most). */
const MAX_FRAME_DEPTH = 8;

/**
 * The URL of the frame that has the keyboard's focus: from the top document's focused element
 * down through every iframe that holds the focus (same-process or not, nested or not), read in
 * the page model's world so the page cannot redefine `document.activeElement`. Past
 * MAX_FRAME_DEPTH the frame reached is judged.
 */
export async function focusedFrameUrl(tab: TabHandle): Promise<string | undefined> {
  try {
    const { frameTree } = await tab.cdp.send('Page.getFrameTree');
    let frame: FrameAddress = { sessionId: undefined, frameId: frameTree.frame.id };
    for (let depth = 0; depth < MAX_FRAME_DEPTH; depth += 1) {
      const inner = await focusedContentFrame(tab, frame);
      if (inner === undefined) break;
      frame = { sessionId: outOfProcess(tab, inner) ?? frame.sessionId, frameId: inner };
    }
    // The top process's frames are in the tree read above; only another process needs its own.
    return frame.sessionId === undefined
      ? urlOfFrame(findFrame(frameTree, frame.frameId))
      : await frameUrl(tab, frame);
  } catch {
    return undefined;
  }
}

/** The content frame of the frame's focused element when that is an iframe. */
async function focusedContentFrame(
  tab: TabHandle,
  frame: FrameAddress,
): Promise<string | undefined> {
  const objectId = await objectInFrame(tab.cdp, tab.state, frame, 'document.activeElement');
  if (objectId === undefined) return undefined;
  try {
    const { node } = await tab.cdp.send('DOM.describeNode', { objectId }, frame.sessionId);
    // `frameId` on a node is set for frame owner elements only: their content frame.
    return node.frameId;
  } finally {
    void tab.cdp
      .send('Runtime.releaseObject', { objectId }, frame.sessionId)
      .catch(() => undefined);
  }
}

/** The child session of an out-of-process frame, undefined for a frame in its parent's process. */
function outOfProcess(tab: TabHandle, frameId: string): string | undefined {
  for (const [sessionId, childFrameId] of tab.state.childFrames)
    if (childFrameId === frameId) return sessionId;
  return undefined;
}

/**
 * The URL of the frame at (x, y) in CSS pixels of the viewport; undefined if nothing is there.
 * Each process's hit test reaches into its same-process iframes; an out-of-process iframe is
 * hit as its owner element, and the point is then tested again in that frame's own session, in
 * its own viewport's coordinates (less the owner's content-box corner), down to the last one.
 */
export async function pointFrameUrl(
  tab: TabHandle,
  x: number,
  y: number,
): Promise<string | undefined> {
  try {
    let at = { x, y };
    let sessionId: string | undefined;
    for (let depth = 0; ; depth += 1) {
      const hit = await tab.cdp.send(
        'DOM.getNodeForLocation',
        { x: Math.round(at.x), y: Math.round(at.y), ignorePointerEventsNone: true },
        sessionId,
      );
      const here = { sessionId, frameId: hit.frameId };
      if (depth + 1 >= MAX_FRAME_DEPTH) return await frameUrl(tab, here);
      const { node } = await tab.cdp.send(
        'DOM.describeNode',
        { backendNodeId: hit.backendNodeId },
        sessionId,
      );
      const child = node.frameId === undefined ? undefined : outOfProcess(tab, node.frameId);
      if (child === undefined) return await frameUrl(tab, here);
      const { model } = await tab.cdp.send(
        'DOM.getBoxModel',
        { backendNodeId: hit.backendNodeId },
        sessionId,
      );
      at = { x: at.x - (model.content[0] ?? 0), y: at.y - (model.content[1] ?? 0) };
      sessionId = child;
    }
  } catch {
    return undefined;
  }
}
