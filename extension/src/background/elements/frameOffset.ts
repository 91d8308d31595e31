/**
 * Where an out-of-process iframe's content starts in the tab's viewport. Coordinates inside the
 * frame are its own, while input goes to the tab; a frame nested in another out-of-process frame
 * adds up the offsets of every owner on the way to the tab. Each owner element is asked for in
 * the session its frame is attached through (where the owner lives).
 */
import type { TabHandle } from '../tabStates';

export interface Offset {
  x: number;
  y: number;
}

/** Bounds the walk up the chain of frames, whatever the recorded parents say. */
const MAX_NESTING = 10;

export async function frameOffset(tab: TabHandle, sessionId: string): Promise<Offset> {
  const offset = { x: 0, y: 0 };
  let session: string | undefined = sessionId;
  for (let depth = 0; session !== undefined && depth < MAX_NESTING; depth += 1) {
    const frameId = tab.state.childFrames.get(session);
    if (frameId === undefined) break;
    const parent: string | undefined = tab.state.childFrameParents.get(session)?.sessionId;
    const { backendNodeId } = await tab.cdp.send('DOM.getFrameOwner', { frameId }, parent);
    const { model } = await tab.cdp.send('DOM.getBoxModel', { backendNodeId }, parent);
    offset.x += model.content[0] ?? 0;
    offset.y += model.content[1] ?? 0;
    session = parent;
  }
  return offset;
}
