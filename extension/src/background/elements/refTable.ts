/**
 * The per-tab ref table. A ref is handed out once per element (its id in its frame's page world,
 * see page/world.ts) and reused by every later snapshot, so an agent's refs stay valid while the
 * element lives. Each snapshot is a new generation; entries remember the role and name last
 * shown, which ref resolution compares against the live element.
 */
import type { RefEntry, TabState } from '../tabStates';
import { elementKey, type OutlineNode } from '../outline/nodes';
import type { WorldAddress } from '../page/wire';

/** Entries kept per tab; past this, those unseen the longest are forgotten (and read as stale). */
const MAX_REFS_PER_TAB = 50_000;

export const REF_PATTERN = /^e\d+$/;

const COPIED_REF = /^\s*\[?(?:ref=)?(e\d+)\]?\s*$/;

/** A ref as an agent may pass it: "e12", copied with its brackets ("[e12]"), or "ref=e12". */
export function refFromArg(arg: string): string {
  return COPIED_REF.exec(arg)?.[1] ?? arg;
}

/** Starts a snapshot generation and gives every outline element that wants one its ref. */
export function assignRefs(state: TabState, nodes: readonly OutlineNode[]): void {
  state.generation += 1;
  const visit = (list: readonly OutlineNode[]): void => {
    for (const node of list) {
      if (node.kind !== 'element') continue;
      if (node.world !== undefined && node.localId !== undefined) {
        node.ref = refFor(state, node.world, node.localId, node.role, node.name).ref;
      }
      visit(node.children);
    }
  };
  visit(nodes);
  forgetOldest(state);
}

/** The element's entry, its ref handed out now if it has none. */
export function refFor(
  state: TabState,
  world: WorldAddress,
  localId: number,
  role: string,
  name: string,
): RefEntry {
  const key = elementKey(world, localId);
  const known = state.refsByKey.get(key);
  if (known !== undefined) {
    known.role = role;
    known.name = name;
    known.generation = state.generation;
    return known;
  }
  const entry: RefEntry = {
    ref: `e${state.nextRef}`,
    world,
    localId,
    ...(world.sessionId === undefined ? {} : { sessionId: world.sessionId }),
    role,
    name,
    generation: state.generation,
  };
  state.nextRef += 1;
  state.refsByKey.set(key, entry);
  state.refsByRef.set(entry.ref, entry);
  return entry;
}

function forgetOldest(state: TabState): void {
  const excess = state.refsByRef.size - MAX_REFS_PER_TAB;
  if (excess <= 0) return;
  const oldest = [...state.refsByRef.values()]
    .sort((a, b) => a.generation - b.generation)
    .slice(0, excess);
  for (const entry of oldest) {
    state.refsByRef.delete(entry.ref);
    state.refsByKey.delete(elementKey(entry.world, entry.localId));
  }
}
