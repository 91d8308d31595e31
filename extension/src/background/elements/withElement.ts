/** Runs work on a resolved target element and always frees its page-side handle. */
import type { TabHandle } from '../tabStates';
import { assertNoDialog } from '../recorders/dialogs';
import {
  releaseElement,
  type ElementHandle,
  type FirstStep,
  type ResolvedElement,
  type SteppedElement,
} from './resolveRef';
import { resolveSteppedTarget, resolveTarget } from './target';

type Target = Parameters<typeof resolveTarget>[1];

/** Resolves the target in the page's main world, runs work with it, and frees the handle. */
export function withElement<T>(
  tab: TabHandle,
  target: Target,
  work: (element: ResolvedElement) => Promise<T>,
): Promise<T> {
  return withResolved(tab, () => resolveTarget(tab, target), work);
}

/**
 * Like withElement, with the page model's handle (resolveModelEntry: two round trips fewer) and
 * the tool's first page-side step sent along with the element's check (one more fewer).
 */
export function withSteppedElement<T>(
  tab: TabHandle,
  target: Target,
  first: FirstStep,
  work: (element: SteppedElement) => Promise<T>,
): Promise<T> {
  return withResolved(tab, () => resolveSteppedTarget(tab, target, first), work);
}

async function withResolved<E extends ElementHandle, T>(
  tab: TabHandle,
  resolve: () => Promise<E>,
  work: (element: E) => Promise<T>,
): Promise<T> {
  assertNoDialog(tab);
  const element = await resolve();
  try {
    return await work(element);
  } finally {
    releaseElement(tab, element);
  }
}
