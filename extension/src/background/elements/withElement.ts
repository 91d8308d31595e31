import type { TabHandle } from '../tabStates';
import { assertNoDialog } from '../recorders/dialogs';
import { releaseElement, type ResolvedElement } from './resolveRef';
import { resolveTarget } from './target';

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
