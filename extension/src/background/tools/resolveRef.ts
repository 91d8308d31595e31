/**
 * Ref resolution shared by the element tools. A ref is only acted on when it still names the
 * element the agent saw: the node must still exist, be in the document, and have the role and
 * name the snapshot showed. Anything else is STALE_REF: never act on a different element.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { RefEntry, TabHandle } from '../handlerContext';
import { axName, axRole, type AXNode } from './axNode';
import { Hint } from './hints';
import { REF_PATTERN } from './refTable';
import { oneLine, quoted } from './text';

export interface ResolvedElement {
  readonly entry: RefEntry;
  readonly objectId: string;
  /** How the snapshot showed it, e.g. `button "Submit" [ref=e3]`. */
  readonly label: string;
}

export function describeEntry(entry: RefEntry): string {
  const name = entry.name === '' ? '' : ` ${quoted(entry.name)}`;
  return `${entry.role}${name} [ref=${entry.ref}]`;
}

export async function resolveRef(tab: TabHandle, ref: string): Promise<ResolvedElement> {
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
  const label = describeEntry(entry);

  const { cdp } = tab;
  const { backendNodeId, sessionId } = entry;
  const [resolved, ax] = await Promise.all([
    cdp.send('DOM.resolveNode', { backendNodeId }, sessionId).catch(() => undefined),
    cdp
      .send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false }, sessionId)
      .catch(() => undefined),
  ]);
  const objectId = resolved?.object.objectId;
  if (objectId === undefined) {
    throw new BridgeError(
      ErrorCode.STALE_REF,
      `Ref ${ref} (${label}) is stale: the element is gone from the page.`,
      Hint.freshRefs,
    );
  }

  const element: ResolvedElement = { entry, objectId, label };
  try {
    await checkStillSame(tab, element, ax?.nodes ?? []);
  } catch (err) {
    releaseElement(tab, element);
    throw err;
  }
  return element;
}

async function checkStillSame(
  tab: TabHandle,
  element: ResolvedElement,
  axNodes: readonly AXNode[],
): Promise<void> {
  const { entry, label } = element;
  const stale = (why: string): BridgeError =>
    new BridgeError(
      ErrorCode.STALE_REF,
      `Ref ${entry.ref} (${label}) is stale: ${why}.`,
      Hint.freshRefs,
    );
  const connected = await tab.cdp
    .send(
      'Runtime.callFunctionOn',
      {
        objectId: element.objectId,
        functionDeclaration: 'function () { return this.isConnected; }',
        returnByValue: true,
      },
      entry.sessionId,
    )
    .catch(() => undefined);
  if (connected?.result.value !== true) throw stale('the element was removed from the page');

  const node = axNodes.find((n) => n.backendDOMNodeId === entry.backendNodeId) ?? axNodes[0];
  if (node === undefined || node.ignored) {
    throw new BridgeError(
      ErrorCode.NOT_VISIBLE,
      `Ref ${entry.ref} (${label}) is hidden now.`,
      Hint.notVisible,
    );
  }
  const role = axRole(node);
  const name = oneLine(axName(node));
  if (role !== entry.role || name !== entry.name) {
    const now = name === '' ? role : `${role} ${quoted(name)}`;
    throw stale(`the element is now ${now}`);
  }
}

/** Frees the page-side handle resolveRef made; a failure only means the page already dropped it. */
export function releaseElement(tab: TabHandle, element: ResolvedElement): void {
  void tab.cdp
    .send('Runtime.releaseObject', { objectId: element.objectId }, element.entry.sessionId)
    .catch(() => undefined);
}
