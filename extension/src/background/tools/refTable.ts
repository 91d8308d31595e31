/**
 * The per-tab ref table. A ref is handed out once per element (backend DOM node id) and reused
 * by every later snapshot, so an agent's refs stay valid while the element lives. Each snapshot
 * is a new generation; entries remember the role and name last shown, which ref resolution
 * compares against the live element.
 */
import type { RefEntry, TabState } from '../handlerContext';
import type { OutlineNode } from './axOutline';

/** Entries kept per tab; past this, those unseen the longest are forgotten (and read as stale). */
const MAX_REFS_PER_TAB = 50_000;

export const REF_PATTERN = /^e\d+$/;

/** Starts a snapshot generation and gives every outline element that wants one its ref. */
export function assignRefs(state: TabState, nodes: readonly OutlineNode[]): void {
  state.generation += 1;
  const visit = (list: readonly OutlineNode[]): void => {
    for (const node of list) {
      if (node.kind !== 'element') continue;
      if (node.wantsRef && node.backendNodeId !== undefined) {
        node.ref = refFor(state, node.backendNodeId, node.role, node.name, node.sessionId);
      }
      visit(node.children);
    }
  };
  visit(nodes);
  forgetOldest(state);
}

/** The element's ref, handed out now if it has none. */
export function refFor(
  state: TabState,
  backendNodeId: number,
  role: string,
  name: string,
  sessionId?: string,
): string {
  const known = entryFor(state, backendNodeId, sessionId);
  if (known !== undefined) {
    known.role = role;
    known.name = name;
    known.generation = state.generation;
    return known.ref;
  }
  const entry: RefEntry = {
    ref: `e${state.nextRef}`,
    backendNodeId,
    ...(sessionId === undefined ? {} : { sessionId }),
    role,
    name,
    generation: state.generation,
  };
  state.nextRef += 1;
  if (sessionId === undefined) state.refsByBackendId.set(backendNodeId, entry);
  else state.refsByChildNode.set(`${sessionId}:${backendNodeId}`, entry);
  state.refsByRef.set(entry.ref, entry);
  return entry.ref;
}

/** The entry of a node, in the tab's own target or an out-of-process iframe's. */
export function entryFor(
  state: TabState,
  backendNodeId: number,
  sessionId?: string,
): RefEntry | undefined {
  return sessionId === undefined
    ? state.refsByBackendId.get(backendNodeId)
    : state.refsByChildNode.get(`${sessionId}:${backendNodeId}`);
}

function forgetOldest(state: TabState): void {
  const excess = state.refsByRef.size - MAX_REFS_PER_TAB;
  if (excess <= 0) return;
  const oldest = [...state.refsByRef.values()]
    .sort((a, b) => a.generation - b.generation)
    .slice(0, excess);
  for (const entry of oldest) {
    state.refsByRef.delete(entry.ref);
    if (entry.sessionId === undefined) state.refsByBackendId.delete(entry.backendNodeId);
    else state.refsByChildNode.delete(`${entry.sessionId}:${entry.backendNodeId}`);
  }
}
