/**
 * One resolver for every element tool: a ref, an accessible locator (role + exact name, nth
 * among equals) or a CSS selector, exactly one. Locator and selector matches get refs like
 * snapshot elements, so errors and results name them the way a snapshot would, and an
 * ambiguous match lists its candidates by ref.
 */
import { BridgeError, ErrorCode, type ElementTarget } from '@browser-agent/protocol';
import type { TabHandle } from '../handlerContext';
import { axName, axRole } from './axNode';
import { Hint } from './hints';
import { refFor } from './refTable';
import { describeEntry, resolveRef, type ResolvedElement } from './resolveRef';
import { oneLine } from './text';

const MAX_CANDIDATES_LISTED = 10;

/** Which of the three kinds of target the arguments give; INVALID_ARGS unless exactly one. */
type TargetKind = 'ref' | 'selector' | 'locator';

function kindOf(target: ElementTarget): TargetKind {
  const given: TargetKind[] = [];
  if (target.ref !== undefined) given.push('ref');
  if (target.selector !== undefined) given.push('selector');
  if (target.role !== undefined) given.push('locator');
  if (given.length === 1 && given[0] !== undefined) return given[0];
  if (given.length === 0 && (target.name !== undefined || target.nth !== undefined)) {
    throw new BridgeError(ErrorCode.INVALID_ARGS, 'name and nth need a role.', Hint.target);
  }
  throw new BridgeError(
    ErrorCode.INVALID_ARGS,
    given.length === 0
      ? 'No element given.'
      : `Give exactly one element target, not ${given.join(' and ')}.`,
    Hint.target,
  );
}

export async function resolveTarget(
  tab: TabHandle,
  target: ElementTarget,
): Promise<ResolvedElement> {
  const kind = kindOf(target);
  if (kind === 'ref' && target.ref !== undefined) return resolveRef(tab, target.ref);
  const { root } = await tab.cdp.send('DOM.getDocument', { depth: 0 });
  const matches =
    kind === 'selector' && target.selector !== undefined
      ? await bySelector(tab, root.nodeId, target.selector)
      : await byLocator(tab, root.backendNodeId, target);
  const what =
    kind === 'selector'
      ? `selector ${JSON.stringify(oneLine(target.selector ?? '', 200))}`
      : `role ${JSON.stringify(target.role)}${target.name === undefined ? '' : ` named ${JSON.stringify(oneLine(target.name, 200))}`}`;
  if (matches.length === 0) {
    throw new BridgeError(ErrorCode.ELEMENT_NOT_FOUND, `No element matches ${what}.`, Hint.find);
  }
  let chosen = matches[0];
  if (kind === 'locator' && target.nth !== undefined) {
    chosen = matches[target.nth];
    if (chosen === undefined) {
      throw new BridgeError(
        ErrorCode.ELEMENT_NOT_FOUND,
        `${what} has ${matches.length} match(es); there is no nth=${target.nth}.`,
        Hint.find,
      );
    }
  } else if (matches.length > 1) {
    const listed = await Promise.all(
      matches.slice(0, MAX_CANDIDATES_LISTED).map((id) => labelFor(tab, id)),
    );
    const more =
      matches.length > listed.length ? `\n- … and ${matches.length - listed.length} more` : '';
    throw new BridgeError(
      ErrorCode.AMBIGUOUS_TARGET,
      `${matches.length} elements match ${what}:\n${listed.map((l) => `- ${l}`).join('\n')}${more}`,
      kind === 'locator'
        ? 'Pass one of these refs, or nth (0-based) to pick one.'
        : 'Pass one of these refs, or a more specific selector.',
    );
  }
  if (chosen === undefined)
    throw new BridgeError(ErrorCode.ELEMENT_NOT_FOUND, `No match for ${what}.`, Hint.find);
  return elementFor(tab, chosen);
}

async function bySelector(tab: TabHandle, rootId: number, selector: string): Promise<number[]> {
  const { nodeIds } = await tab.cdp
    .send('DOM.querySelectorAll', { nodeId: rootId, selector })
    .catch(() => {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `${JSON.stringify(oneLine(selector, 200))} is not a valid CSS selector.`,
        Hint.target,
      );
    });
  const described = await Promise.all(
    nodeIds.map((nodeId) => tab.cdp.send('DOM.describeNode', { nodeId }).catch(() => undefined)),
  );
  return described.flatMap((d) => (d === undefined ? [] : [d.node.backendNodeId]));
}

async function byLocator(
  tab: TabHandle,
  rootBackendId: number,
  target: ElementTarget,
): Promise<number[]> {
  const { nodes } = await tab.cdp.send('Accessibility.queryAXTree', {
    backendNodeId: rootBackendId,
    ...(target.role === undefined ? {} : { role: target.role }),
    ...(target.name === undefined ? {} : { accessibleName: target.name }),
  });
  const ids: number[] = [];
  for (const node of nodes) {
    const id = node.backendDOMNodeId;
    if (!node.ignored && id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Gives the element a ref (as a snapshot would) and returns how a snapshot shows it. */
async function labelFor(tab: TabHandle, backendNodeId: number): Promise<string> {
  const { nodes } = await tab.cdp
    .send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false })
    .catch(() => ({ nodes: [] }));
  const node = nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? nodes[0];
  const role = node === undefined ? 'generic' : axRole(node) || 'generic';
  const name = node === undefined ? '' : oneLine(axName(node));
  refFor(tab.state, backendNodeId, role, name);
  const entry = tab.state.refsByBackendId.get(backendNodeId);
  return entry === undefined ? role : describeEntry(entry);
}

async function elementFor(tab: TabHandle, backendNodeId: number): Promise<ResolvedElement> {
  const label = await labelFor(tab, backendNodeId);
  const entry = tab.state.refsByBackendId.get(backendNodeId);
  const { object } = await tab.cdp.send('DOM.resolveNode', { backendNodeId });
  if (entry === undefined || object.objectId === undefined) {
    throw new BridgeError(ErrorCode.ELEMENT_NOT_FOUND, `${label} is gone.`, Hint.find);
  }
  return { entry, objectId: object.objectId, label };
}
