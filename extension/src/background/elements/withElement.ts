/** Runs work on a resolved target element and always frees its page-side handle. */
import type { TabHandle } from '../tabStates';
import { assertNoDialog } from '../recorders/dialogs';
import { releaseElement, type ElementHandle, type ResolvedElement } from './resolveRef';
import { resolveModelTarget, resolveTarget } from './target';

/** Resolves the target, runs work with it, and always frees the page-side handle. */
export async function withElement<T>(
  tab: TabHandle,
  target: Parameters<typeof resolveTarget>[1],
  work: (element: ResolvedElement) => Promise<T>,
): Promise<T> {
  assertNoDialog(tab);
  const element = await resolveTarget(tab, target);
  try {
    return await work(element);
  } finally {
    releaseElement(tab, element);
  }
}

/** Like withElement, with the page model's handle (resolveModelEntry): two round trips fewer. */
export async function withModelElement<T>(
  tab: TabHandle,
  target: Parameters<typeof resolveTarget>[1],
  work: (element: ElementHandle) => Promise<T>,
): Promise<T> {
  assertNoDialog(tab);
  const element = await resolveModelTarget(tab, target);
  try {
    return await work(element);
  } finally {
    releaseElement(tab, element);
  }
}
