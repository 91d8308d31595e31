/**
 * Child frames in the snapshot. getFullAXTree covers one frame, and the <iframe> element in its
 * parent's tree shows up with no children; each child frame's outline is hung under the element
 * that owns it. Frames running in another process (cross-site iframes under site isolation)
 * are read through their child session (childFrames.ts); their nodes carry that session id.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { buildOutline, type OutlineNode } from './axOutline';

/** Bounds the work on pages full of ad and tracking frames. */
const MAX_CHILD_FRAMES = 50;

/** The main frame's outline with every reachable child frame's outline attached in place. */
export async function pageOutline(
  cdp: CdpClient,
  outOfProcess: ReadonlyMap<string, string> = new Map(),
): Promise<OutlineNode[]> {
  const [{ nodes }, { frameTree }] = await Promise.all([
    cdp.send('Accessibility.getFullAXTree'),
    cdp.send('Page.getFrameTree'),
  ]);
  const root = buildOutline(nodes);
  const children = childFrameIds(frameTree).slice(0, MAX_CHILD_FRAMES);
  const remote = [...outOfProcess].slice(0, MAX_CHILD_FRAMES);
  if (children.length === 0 && remote.length === 0) return root;
  const framed = await Promise.all([
    ...children.map((frameId) => frameOutline(cdp, frameId)),
    ...remote.map(([sessionId, frameId]) => remoteFrameOutline(cdp, sessionId, frameId)),
  ]);
  const byOwner = new Map<number, OutlineNode[]>();
  for (const frame of framed) if (frame !== undefined) byOwner.set(frame.owner, frame.outline);
  for (const outline of [root, ...byOwner.values()]) attach(outline, byOwner);
  return root;
}

function childFrameIds(tree: Protocol.Page.FrameTree): string[] {
  return (tree.childFrames ?? []).flatMap((child) => [child.frame.id, ...childFrameIds(child)]);
}

async function frameOutline(
  cdp: CdpClient,
  frameId: string,
): Promise<{ owner: number; outline: OutlineNode[] } | undefined> {
  try {
    const [{ backendNodeId }, { nodes }] = await Promise.all([
      cdp.send('DOM.getFrameOwner', { frameId }),
      cdp.send('Accessibility.getFullAXTree', { frameId }),
    ]);
    return { owner: backendNodeId, outline: buildOutline(nodes) };
  } catch {
    // Out-of-process or already gone: nothing this target can show.
    return undefined;
  }
}

async function remoteFrameOutline(
  cdp: CdpClient,
  sessionId: string,
  frameId: string,
): Promise<{ owner: number; outline: OutlineNode[] } | undefined> {
  try {
    const [{ backendNodeId }, { nodes }] = await Promise.all([
      cdp.send('DOM.getFrameOwner', { frameId }),
      cdp.send('Accessibility.getFullAXTree', {}, sessionId),
    ]);
    const outline = buildOutline(nodes);
    tagSession(outline, sessionId);
    return { owner: backendNodeId, outline };
  } catch {
    return undefined;
  }
}

function tagSession(outline: readonly OutlineNode[], sessionId: string): void {
  for (const node of outline) {
    if (node.kind !== 'element') continue;
    node.sessionId = sessionId;
    tagSession(node.children, sessionId);
  }
}

/**
 * Hangs each frame's outline under its owner element, once. Owner ids are the tab's own backend
 * node ids, so nodes of an out-of-process frame (another id space) never count as owners: an id
 * they share by chance would otherwise hang a frame inside itself.
 */
function attach(outline: readonly OutlineNode[], byOwner: Map<number, OutlineNode[]>): void {
  for (const node of outline) {
    if (node.kind !== 'element') continue;
    const owner = node.sessionId === undefined ? node.backendNodeId : undefined;
    const frame = owner === undefined ? undefined : byOwner.get(owner);
    if (
      owner !== undefined &&
      frame !== undefined &&
      frame !== outline &&
      node.children.length === 0
    ) {
      byOwner.delete(owner);
      node.children = frame;
    } else attach(node.children, byOwner);
  }
}
