import type { PermissionMode } from '@browser-agent/protocol';
import type { ApprovalQuestion, SessionView } from '../../shared/messages';
import type { SessionRecord } from '../sessionStore';
import type { TransactionManager } from '../transactions/manager';
import type { Activity } from './activity';

async function transactionView(
  manager: TransactionManager,
  sessionId: string,
): Promise<SessionView['transaction']> {
  const tx = await manager.of(sessionId);
  return {
    open: tx.open !== undefined,
    commits: tx.commits,
    rollbacks: tx.rollbacks,
    lastRollbackMs: tx.lastRollbackMs,
    checkpoints: tx.history.length,
    checkpointBytes: (tx.open ?? tx.history.at(-1))?.bytes,
    resumes: tx.resume?.count ?? 0,
    lastResumeMs: tx.resume?.lastMs,
  };
}

/** Each agent's permission mode and open question (approvals/permissions.ts). */
export interface PermissionFacts {
  modeOf(record: SessionRecord): Promise<PermissionMode>;
  questionOf(sessionId: string): ApprovalQuestion | undefined;
}

/** What the panel shows of each session: its client, state and tabs as Chrome sees them now. */

export async function sessionViews(
  records: SessionRecord[],
  busy: ReadonlySet<string>,
  transactions: TransactionManager,
  activity: Activity,
  permissions: PermissionFacts,
): Promise<SessionView[]> {
  return Promise.all(
    records
      .filter((r) => r.dismissed !== true)
      .map(async (r) => {
        const tabs = await Promise.all(
          r.tabIds.map(async (tabId) => {
            const tab = await chrome.tabs.get(tabId).catch(() => undefined);
            return { tabId, title: tab?.title ?? '', url: tab?.url ?? '' };
          }),
        );
        const running = activity.running(r.sessionId);
        return {
          sessionId: r.sessionId,
          client: r.client,
          project: r.project,
          state: r.state,
          lastActivity: r.lastActivity,
          busy: busy.has(r.sessionId),
          color: r.color,
          stoppedByAll: r.stoppedByAll === true,
          permissionMode: await permissions.modeOf(r),
          pendingQuestion: permissions.questionOf(r.sessionId),
          transaction: await transactionView(transactions, r.sessionId),
          tabs,
          page: tabs.find((t) => t.tabId === r.currentTabId) ?? tabs.at(-1),
          running: running && { tool: running.tool, startedAt: running.startedAt },
        };
      }),
  );
}
