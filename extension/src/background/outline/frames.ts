/**
 * The whole tab's outline: every frame's page model is asked in parallel (the tab's own frames
 * through the tab's session, out-of-process iframes through their child sessions, nested ones
 * included), and each frame's outline is hung under the element that owns it.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import type { TabHandle } from '../tabStates';
import { elementKey, fromWire, type OutlineNode } from './nodes';
import { PAGE_MODEL } from '../page/pageScript';
import type { WireNode } from '../page/wire';
import { callInFrame, type FrameAddress, type WorldAddress } from '../page/world';

/** Bounds the work on pages full of ad and tracking frames. */
const MAX_FRAMES = 50;

export interface FrameRef extends FrameAddress {
  /** Where its owner element lives; undefined for the tab's main frame. */
  parent: FrameAddress | undefined;
}

interface FrameOutline {
  frame: FrameRef;
  world: WorldAddress;
  outline: OutlineNode[];
}

/** The main frame's outline with every reachable child frame's outline attached in place. */
export async function pageOutline(tab: TabHandle): Promise<OutlineNode[]> {
  const { frames, values: outlines } = await acrossFrames(tab, MAX_FRAMES, (frame) =>
    frameOutline(tab, frame),
  );
  const byFrame = new Map<string, FrameOutline>();
  for (const found of outlines) if (found !== undefined) byFrame.set(frameKey(found.frame), found);
  const root = outlines[0];
  if (root === undefined || frames[0]?.parent !== undefined) return [];

  const owners = await Promise.all(
    [...byFrame.values()].map(async (child) => {
      const parent = child.frame.parent;
      const parentWorld = parent === undefined ? undefined : byFrame.get(frameKey(parent))?.world;
      if (parent === undefined || parentWorld === undefined) return undefined;
      const ownerId = await ownerLocalId(tab.cdp, child.frame, parentWorld);
      return ownerId === undefined ? undefined : { key: elementKey(parentWorld, ownerId), child };
    }),
  );
  const byOwner = new Map<string, OutlineNode[]>();
  for (const owner of owners) if (owner !== undefined) byOwner.set(owner.key, owner.child.outline);
  for (const found of byFrame.values()) attach(found.outline, byOwner);
  return root.outline;
}

const frameKey = (frame: FrameAddress): string => `${frame.sessionId ?? ''}/${frame.frameId}`;

/**
 * Runs work in each of the tab's frames (listFrames, the first `limit`), all at once. The main
 * frame's work starts while the frames are listed, on the main frame the tab had last time: on a
 * page without iframes an outline or a query is one round trip, not two (#26). Work done for a
 * main frame that is no longer the main frame is dropped; the list itself is always fresh.
 */
export async function acrossFrames<T>(
  tab: TabHandle,
  limit: number,
  work: (frame: FrameRef) => Promise<T>,
): Promise<{ frames: FrameRef[]; values: T[] }> {
  const guess = tab.state.mainFrameId;
  const early =
    guess === undefined
      ? undefined
      : work({ sessionId: undefined, frameId: guess, parent: undefined });
  early?.catch(() => undefined);
  const frames = (await listFrames(tab)).slice(0, limit);
  const values = await Promise.all(
    frames.map((frame) =>
      early !== undefined &&
      frame === frames[0] &&
      frame.sessionId === undefined &&
      frame.frameId === guess
        ? early
        : work(frame),
    ),
  );
  return { frames, values };
}

/** The tab's frames, main frame first, then those of each out-of-process iframe's session. */
export async function listFrames(tab: TabHandle): Promise<FrameRef[]> {
  const sessions: (string | undefined)[] = [undefined, ...tab.state.childFrames.keys()];
  const found = await Promise.all(
    sessions.map((sessionId) =>
      tab.cdp
        .send('Page.getFrameTree', undefined, sessionId)
        .then((r) => ({ sessionId, tree: r.frameTree }))
        .catch(() => undefined),
    ),
  );
  const trees = found.filter((t) => t !== undefined);
  // Which session each frame is local to: a child session's frames are its own, though its
  // parent's tree may list them too; so child sessions are read last and win.
  const localIn = new Map<string, string | undefined>();
  const claim = (node: Protocol.Page.FrameTree, sessionId: string | undefined): void => {
    localIn.set(node.frame.id, sessionId);
    for (const child of node.childFrames ?? []) claim(child, sessionId);
  };
  for (const { sessionId, tree } of trees) if (sessionId === undefined) claim(tree, undefined);
  for (const { sessionId, tree } of trees) if (sessionId !== undefined) claim(tree, sessionId);
  const frames: FrameRef[] = [];
  for (const { sessionId, tree } of trees) {
    const visit = (node: Protocol.Page.FrameTree, parent: FrameAddress | undefined): void => {
      const frame: FrameRef = { sessionId, frameId: node.frame.id, parent };
      frames.push(frame);
      for (const child of node.childFrames ?? []) visit(child, frame);
    };
    if (sessionId === undefined) {
      tab.state.mainFrameId = tree.frame.id;
      visit(tree, undefined);
      continue;
    }
    const parentFrameId =
      tab.state.childFrameParents.get(sessionId)?.frameId ?? tree.frame.parentId;
    if (parentFrameId === undefined) continue;
    const parentSession = localIn.get(parentFrameId);
    visit(tree, { sessionId: parentSession, frameId: parentFrameId });
  }
  return frames;
}

async function frameOutline(tab: TabHandle, frame: FrameRef): Promise<FrameOutline | undefined> {
  try {
    const { world, value } = await callInFrame(tab.cdp, tab.state, frame, 'snapshot()');
    if (typeof value !== 'string') return undefined;
    const wire = JSON.parse(value) as WireNode[];
    return { frame, world, outline: fromWire(wire, world) };
  } catch {
    // Out-of-process (its own session answers for it), detached, or not yet loaded.
    return undefined;
  }
}

/** The page-model id of the <iframe> element that owns the frame, in its parent's world. */
async function ownerLocalId(
  cdp: CdpClient,
  frame: FrameAddress,
  parentWorld: WorldAddress,
): Promise<number | undefined> {
  try {
    const { backendNodeId } = await cdp.send(
      'DOM.getFrameOwner',
      { frameId: frame.frameId },
      parentWorld.sessionId,
    );
    const { object } = await cdp.send(
      'DOM.resolveNode',
      { backendNodeId, executionContextId: parentWorld.contextId },
      parentWorld.sessionId,
    );
    if (object.objectId === undefined) return undefined;
    const { result } = await cdp.send(
      'Runtime.callFunctionOn',
      {
        objectId: object.objectId,
        functionDeclaration: `function () { return ${PAGE_MODEL}.idOf(this); }`,
        returnByValue: true,
      },
      parentWorld.sessionId,
    );
    void cdp
      .send('Runtime.releaseObject', { objectId: object.objectId }, parentWorld.sessionId)
      .catch(() => undefined);
    const id: unknown = result.value;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Hangs each frame's outline under its owner element, once. */
function attach(outline: readonly OutlineNode[], byOwner: Map<string, OutlineNode[]>): void {
  for (const node of outline) {
    if (node.kind !== 'element') continue;
    const key =
      node.framed && node.world !== undefined && node.localId !== undefined
        ? elementKey(node.world, node.localId)
        : undefined;
    const frame = key === undefined ? undefined : byOwner.get(key);
    if (key !== undefined && frame !== undefined && frame !== outline) {
      byOwner.delete(key);
      node.children = frame;
    } else attach(node.children, byOwner);
  }
}
