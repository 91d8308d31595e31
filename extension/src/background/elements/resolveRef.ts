/**
 * Ref resolution shared by the element tools. A ref is only acted on when it still names the
 * element the agent saw: the page model must still hold it (same world, so the frame has not
 * navigated), it must be in the document, and it must have the role and name the snapshot
 * showed. Anything else is STALE_REF: never act on a different element.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { RefEntry, ResolvedEntry, TabHandle } from '../tabStates';
import { Hint } from '../common/hints';
import type { ElementCheck } from '../page/wire';
import { callModel, elementObject } from '../page/world';
import { REF_PATTERN, refFromArg } from './refTable';
import { oneLine, quoted } from '../common/text';

export interface ResolvedElement {
  readonly entry: ResolvedEntry;
  /** The element in the page's main world, where tools run their functions on it. */
  readonly objectId: string;
  /** How the snapshot showed it, e.g. `button "Submit" [e3]`. */
  readonly label: string;
  /**
   * The page model's handle on it, freed with the element (releaseElement): freed at once, its
   * release was queued in the page ahead of the tool's first command (#26: 1–4 ms per action).
   */
  readonly modelObjectId?: string;
}

export function describeEntry(entry: RefEntry): string {
  const name = entry.name === '' ? '' : ` ${quoted(entry.name)}`;
  return `${entry.role}${name} [${entry.ref}]`;
}

export async function resolveRef(tab: TabHandle, arg: string): Promise<ResolvedElement> {
  const ref = refFromArg(arg);
  const entry = tab.state.refsByRef.get(ref);
  if (entry === undefined) {
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
  return resolveEntry(tab, entry);
}

/** The live element of a ref entry, checked to be the one the agent saw. */
export async function resolveEntry(tab: TabHandle, entry: RefEntry): Promise<ResolvedElement> {
  const label = describeEntry(entry);
  const { cdp } = tab;
  // Both at once; the page-model handle is freed with the element (releaseElement).
  const [check, isolated] = await Promise.all([
    callModel(cdp, entry.world, `check(${entry.localId})`).then(
      (value) => value as ElementCheck,
      () => undefined,
    ),
    elementObject(cdp, entry.world, entry.localId),
  ]);
  const release = (): void => {
    if (isolated === undefined) return;
    void cdp
      .send('Runtime.releaseObject', { objectId: isolated }, entry.sessionId)
      .catch(() => undefined);
  };
  try {
    return { ...(await liveElement(tab, entry, label, check, isolated)), modelObjectId: isolated };
  } catch (err) {
    release();
    throw err;
  }
}

async function liveElement(
  tab: TabHandle,
  entry: RefEntry,
  label: string,
  check: ElementCheck | undefined,
  isolated: string | undefined,
): Promise<ResolvedElement> {
  const { cdp } = tab;
  const stale = (why: string): BridgeError =>
    new BridgeError(
      ErrorCode.STALE_REF,
      `Ref ${entry.ref} (${label}) is stale: ${why}.`,
      Hint.freshRefs,
    );
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

  if (isolated === undefined) throw stale('the element was removed from the page');
  const described = await cdp
    .send('DOM.describeNode', { objectId: isolated }, entry.sessionId)
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
    throw stale('the element was removed from the page');
  }
  return { entry: { ...entry, backendNodeId }, objectId, label };
}

/** Frees the page-side handle resolveRef made; a failure only means the page already dropped it. */
export function releaseElement(tab: TabHandle, element: ResolvedElement): void {
  for (const objectId of [element.objectId, element.modelObjectId]) {
    if (objectId === undefined) continue;
    void tab.cdp
      .send('Runtime.releaseObject', { objectId }, element.entry.sessionId)
      .catch(() => undefined);
  }
}
