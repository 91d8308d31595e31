import type { HandlerContext } from '../handlerContext';
import { restoreTab, type Checkpoint } from './checkpoint';

export interface RollbackReport {
  ms: number;
  limitMs: number;
  restored: string[];
  closed: string[];
  gaveUp: boolean;
}

/**
 * Restores a checkpoint: tabs opened since are closed, the others get their state back. A
 * rollback that takes longer than `limitMs` gives up cleanly and leaves the agent a fresh tab.
 */
export async function rollbackTo(
  ctx: HandlerContext,
  checkpoint: Checkpoint,
  limitMs: number,
): Promise<RollbackReport> {
  const startedAt = Date.now();
  const deadline = startedAt + limitMs;
  const report: RollbackReport = { ms: 0, limitMs, restored: [], closed: [], gaveUp: false };
  const keep = new Set(checkpoint.tabs.map((t) => t.tabId));
  const work = (async () => {
    // Highest index first, so closing one does not shift the indexes still to visit.
    for (const tab of (await ctx.listTabs()).reverse()) {
      if (keep.has(tab.tabId)) continue;
      await ctx.closeTab(tab.index);
      report.closed.push(tab.url);
    }
    const open = new Set((await ctx.listTabs()).map((t) => t.tabId));
    for (const saved of checkpoint.tabs) {
      const tab = open.has(saved.tabId) ? await ctx.tabById(saved.tabId) : await ctx.newTab();
      await restoreTab(tab, saved, deadline);
      report.restored.push(
        `${saved.url} (${saved.cookies.length} cookies, ${saved.localStorage?.length ?? 0} localStorage and ${saved.sessionStorage?.length ?? 0} sessionStorage keys)`,
      );
    }
  })();
  const timedOut = await Promise.race([
    work.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(true), limitMs)),
  ]);
  if (timedOut) {
    report.gaveUp = true;
    // Whatever the stuck work does later happens in tabs the agent is steered away from.
    work.catch(() => undefined);
    await ctx.newTab();
  }
  report.ms = Date.now() - startedAt;
  return report;
}
