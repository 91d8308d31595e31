/**
 * One resolver for every element tool: a ref, an accessible locator (role + exact name, nth
 * among equals) or a CSS selector, exactly one. Locators and selectors are matched by the page
 * model in every frame; selectors match inside open shadow roots too. Matches get refs like
 * snapshot elements, so errors and results name them the way a snapshot would, and an
 * ambiguous match lists its candidates by ref.
 */
import { BridgeError, ErrorCode, type ElementTarget } from '@browser-agent/protocol';
import type { RefEntry, TabHandle } from '../tabStates';
import { acrossFrames } from '../outline/frames';
import { Hint } from '../common/hints';
import type { QueryAnswer } from '../page/wire';
import { callInFrame } from '../page/world';
import { refFor } from './refTable';
import {
  describeEntry,
  refEntry,
  resolveEntry,
  resolveModelEntry,
  type ElementHandle,
  type FirstStep,
  type ResolvedElement,
  type SteppedElement,
} from './resolveRef';
import { oneLine } from '../common/text';

const MAX_CANDIDATES_LISTED = 10;

/** Whether a call's arguments (or a part of them: a drag's end, a form field) name an element. */
export function namesElement(value: unknown): value is ElementTarget {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v['ref'] !== undefined || v['role'] !== undefined || v['selector'] !== undefined;
}

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

/** The target element in the page's main world (resolveEntry). */
export async function resolveTarget(
  tab: TabHandle,
  target: ElementTarget,
): Promise<ResolvedElement> {
  return resolveEntry(tab, await targetEntry(tab, target));
}

/** The target element as the page model's handle (resolveModelEntry). */
export async function resolveModelTarget(
  tab: TabHandle,
  target: ElementTarget,
): Promise<ElementHandle> {
  return resolveModelEntry(tab, await targetEntry(tab, target));
}

/** resolveModelTarget with the tool's first step sent along with the element's check. */
export async function resolveSteppedTarget(
  tab: TabHandle,
  target: ElementTarget,
  first: FirstStep,
): Promise<SteppedElement> {
  // A ref's check goes out before this returns (no await first): an action arms right after it
  // (armedWhile), and the page answers the check, which the action needs first, first.
  if (kindOf(target) === 'ref' && target.ref !== undefined)
    return resolveModelEntry(tab, refEntry(tab, target.ref), first);
  return resolveModelEntry(tab, await targetEntry(tab, target), first);
}

/** The one element the target names, as a ref entry; not yet checked to be live. */
export async function targetEntry(tab: TabHandle, target: ElementTarget): Promise<RefEntry> {
  const kind = kindOf(target);
  if (kind === 'ref' && target.ref !== undefined) return refEntry(tab, target.ref);
  const { call, what } = queryFor(kind === 'selector' ? 'selector' : 'locator', target);
  const matches = await matchesIn(tab, call, what);
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
    const listed = matches.slice(0, MAX_CANDIDATES_LISTED).map(describeEntry);
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
  return chosen;
}

/** The page-model query for a selector or locator target, and how errors name it. */
export function queryFor(
  kind: 'selector' | 'locator',
  target: ElementTarget,
): { call: string; what: string } {
  if (kind === 'selector')
    return {
      call: `bySelector(${JSON.stringify(target.selector ?? '')})`,
      what: `selector ${JSON.stringify(oneLine(target.selector ?? '', 200))}`,
    };
  return {
    call: `byRole(${JSON.stringify(target.role ?? '')}, ${target.name === undefined ? 'undefined' : JSON.stringify(target.name)})`,
    what: `role ${JSON.stringify(target.role)}${target.name === undefined ? '' : ` named ${JSON.stringify(oneLine(target.name, 200))}`}`,
  };
}

/**
 * Matches of a page-model query (`byRole(…)`, `bySelector(…)`, `byText(…)`) in every frame, in
 * frame order, each given a ref as a snapshot would; `what` names the query in errors.
 */
export async function matchesIn(tab: TabHandle, call: string, what: string): Promise<RefEntry[]> {
  const { values: answers } = await acrossFrames(tab, Infinity, (frame) =>
    callInFrame(tab.cdp, tab.state, frame, call).catch(() => undefined),
  );
  const entries: RefEntry[] = [];
  for (const answer of answers) {
    if (answer === undefined) continue;
    const value = answer.value as QueryAnswer;
    if ('error' in value) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `${what} is not a valid CSS selector: ${oneLine(value.error, 200)}`,
        Hint.target,
      );
    }
    for (const m of value.matches) entries.push(refFor(tab.state, answer.world, m.i, m.r, m.n));
  }
  return entries;
}
