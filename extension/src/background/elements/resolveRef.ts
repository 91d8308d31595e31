/**
 * Ref resolution shared by the element tools. A ref is only acted on when it still names the
 * element the agent saw: the page model must still hold it (same world, so the frame has not
 * navigated), it must be in the document, and it must have the role and name the snapshot
 * showed. Anything else is STALE_REF: never act on a different element.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { RefEntry, ResolvedEntry, TabHandle } from '../tabStates';
import { Hint } from '../common/hints';
import type { CheckedStep, ElementCheck } from '../page/wire';
import { callModel, elementObject } from '../page/world';
import { REF_PATTERN, refFromArg } from './refTable';
import { oneLine, quoted } from '../common/text';

/** An element checked to be the one the agent saw, with a handle tools run functions on. */
export interface ElementHandle {
  readonly entry: RefEntry;
  /**
   * The element in the world the tool asked for: the page's main world (resolveEntry), or the
   * page model's isolated world (resolveModelEntry), whose DOM methods the page cannot patch.
   * DOM.* commands take it in either world.
   */
  readonly objectId: string;
  /** How the snapshot showed it, e.g. `button "Submit" [e3]`. */
  readonly label: string;
  /**
   * The page model's handle on it, freed with the element (releaseElement): freed at once, its
   * release was queued in the page ahead of the tool's first command (#26: 1–4 ms per action).
   */
  readonly modelObjectId?: string;
}

/**
 * A tool's first page-side step, sent with the element's check (the page model's checkThen):
 * `fn` is a function declaration run on the element in the page model's world, `args` its
 * JSON arguments. It runs only on the element the agent saw.
 */
export interface FirstStep {
  readonly fn: string;
  readonly args: readonly unknown[];
}

/** An element from resolveModelEntry with a first step: what the step returned. */
export interface SteppedElement extends ElementHandle {
  readonly firstValue: unknown;
}

/** An element resolved in the page's main world, where tools run the page's own code on it. */
export interface ResolvedElement extends ElementHandle {
  readonly entry: ResolvedEntry;
}

export function describeEntry(entry: RefEntry): string {
  const name = entry.name === '' ? '' : ` ${quoted(entry.name)}`;
  return `${entry.role}${name} [${entry.ref}]`;
}

export async function resolveRef(tab: TabHandle, arg: string): Promise<ResolvedElement> {
  return resolveEntry(tab, refEntry(tab, arg));
}

/** The entry of a ref argument the tab knows: INVALID_ARGS or STALE_REF otherwise. */
export function refEntry(tab: TabHandle, arg: string): RefEntry {
  const ref = refFromArg(arg);
  const entry = tab.state.refsByRef.get(ref);
  if (entry !== undefined) return entry;
  if (!REF_PATTERN.test(ref)) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `"${oneLine(ref, 40)}" is not a ref.`,
      Hint.refFormat,
    );
  }
  throw new BridgeError(
    ErrorCode.STALE_REF,
    `Ref ${ref} is not known in this tab.`,
    Hint.freshRefs,
  );
}

/** The live element of a ref entry, checked to be the one the agent saw, in the main world. */
export async function resolveEntry(tab: TabHandle, entry: RefEntry): Promise<ResolvedElement> {
  const checked = await resolveModelEntry(tab, entry);
  try {
    const main = await mainWorld(tab, checked);
    return { ...main, modelObjectId: checked.objectId };
  } catch (err) {
    releaseElement(tab, checked);
    throw err;
  }
}

/**
 * The live element of a ref entry, checked to be the one the agent saw, as the page model's
 * handle: for tools whose functions use only the DOM's own methods (focus, selection, a hit test),
 * which work the same from the isolated world; the main world costs two round trips more
 * (DOM.describeNode, DOM.resolveNode: #26).
 */
export async function resolveModelEntry(tab: TabHandle, entry: RefEntry): Promise<ElementHandle>;
export async function resolveModelEntry(
  tab: TabHandle,
  entry: RefEntry,
  first: FirstStep,
): Promise<SteppedElement>;
export async function resolveModelEntry(
  tab: TabHandle,
  entry: RefEntry,
  first?: FirstStep,
): Promise<ElementHandle | SteppedElement> {
  const label = describeEntry(entry);
  // Both at once; the page-model handle is freed with the element (releaseElement).
  const [checked, isolated] = await Promise.all([
    checkEntry(tab, entry, first),
    elementObject(tab, entry.world, entry.localId),
  ]);
  try {
    checkLive(entry, label, checked?.check);
    if (isolated === undefined)
      throw staleRef(entry, label, 'the element was removed from the page');
    const element = { entry, objectId: isolated, label };
    return first === undefined ? element : { ...element, firstValue: checked?.value };
  } catch (err) {
    if (isolated !== undefined) releaseElement(tab, { entry, objectId: isolated, label });
    throw err;
  }
}

/**
 * Runs `step` on the entry's element in the page model's world, in the same call as the check
 * that it is still the element the agent saw (checkThen): for a tool whose whole page-side work
 * is one step, which then needs no handle on the element (#26: two evaluates fewer in the page
 * before the action). A stale or hidden element fails as in resolveModelEntry and is never
 * touched; undefined when the step threw.
 */
export async function stepOnEntry(
  tab: TabHandle,
  entry: RefEntry,
  step: FirstStep,
): Promise<unknown> {
  const checked = await checkEntry(tab, entry, step);
  checkLive(entry, describeEntry(entry), checked?.check);
  return checked?.value;
}

/**
 * The page model's check of the entry's element, with what the first step returned when there
 * is one; undefined when the model's world is gone (the frame navigated or closed).
 */
function checkEntry(
  tab: TabHandle,
  entry: RefEntry,
  first: FirstStep | undefined,
): Promise<CheckedStep | undefined> {
  return callModel(tab, entry.world, checkCall(entry, first)).then(
    (value): CheckedStep =>
      first === undefined ? { check: value as ElementCheck } : (value as CheckedStep),
    () => undefined,
  );
}

/** The page-model call that checks the entry's element, with the first step when there is one. */
function checkCall(entry: RefEntry, first: FirstStep | undefined): string {
  if (first === undefined) return `check(${entry.localId})`;
  const args = [entry.localId, entry.role, entry.name].map((v) => JSON.stringify(v)).join(', ');
  return `checkThen(${args}, ${first.fn}, ${JSON.stringify(first.args)})`;
}

function staleRef(entry: RefEntry, label: string, why: string): BridgeError {
  return new BridgeError(
    ErrorCode.STALE_REF,
    `Ref ${entry.ref} (${label}) is stale: ${why}.`,
    Hint.freshRefs,
  );
}

function checkLive(entry: RefEntry, label: string, check: ElementCheck | undefined): void {
  const stale = (why: string): BridgeError => staleRef(entry, label, why);
  if (check === undefined) throw stale('its frame navigated or closed since');
  if (check.state === 'gone') throw stale('the element was removed from the page');
  if (check.role !== entry.role || check.name !== entry.name) {
    const name = oneLine(check.name);
    throw stale(`the element is now ${name === '' ? check.role : `${check.role} ${quoted(name)}`}`);
  }
  if (check.state === 'hidden') {
    throw new BridgeError(
      ErrorCode.NOT_VISIBLE,
      `Ref ${entry.ref} (${label}) is hidden now.`,
      Hint.notVisible,
    );
  }
}

/** The checked element's main-world handle and node id (the isolated handle stays the caller's). */
async function mainWorld(tab: TabHandle, checked: ElementHandle): Promise<ResolvedElement> {
  const { cdp } = tab;
  const { entry, label } = checked;
  const described = await cdp
    .send('DOM.describeNode', { objectId: checked.objectId }, entry.sessionId)
    .catch(() => undefined);
  const backendNodeId = described?.node.backendNodeId;
  const main =
    backendNodeId === undefined
      ? undefined
      : await cdp
          .send('DOM.resolveNode', { backendNodeId }, entry.sessionId)
          .catch(() => undefined);
  const objectId = main?.object.objectId;
  if (backendNodeId === undefined || objectId === undefined) {
    throw staleRef(entry, label, 'the element was removed from the page');
  }
  return { entry: { ...entry, backendNodeId }, objectId, label };
}

/** Frees the page-side handle resolveRef made; a failure only means the page already dropped it. */
export function releaseElement(tab: TabHandle, element: ElementHandle): void {
  for (const objectId of new Set([element.objectId, element.modelObjectId])) {
    if (objectId === undefined) continue;
    void tab.cdp
      .send('Runtime.releaseObject', { objectId }, element.entry.sessionId)
      .catch(() => undefined);
  }
}
