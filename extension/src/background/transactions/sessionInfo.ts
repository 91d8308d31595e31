import type { SessionInfoOutput } from '@browser-agent/protocol';
import type { TabSummary } from '../handlerContext';
import type { Checkpoint } from './checkpoint';
import type { SessionTransactions } from './manager';

const time = (at: number): string => new Date(at).toISOString().slice(11, 19);

function checkpointLine(c: Checkpoint): string {
  const label = c.label === undefined || c.kind === 'batch' ? '' : ` "${c.label}"`;
  return `- ${c.id} ${c.kind}${label} at ${time(c.takenAt)}: ${c.tabs.length} tab(s), ${c.bytes} bytes`;
}

function limitsLine(tx: SessionTransactions): string {
  const {
    rollbackTimeoutMs,
    maxCheckpoints,
    autoCheckpointEveryCalls,
    autoCheckpointEverySeconds,
  } = tx.limits;
  const auto = [
    autoCheckpointEveryCalls === undefined ? undefined : `every ${autoCheckpointEveryCalls} calls`,
    autoCheckpointEverySeconds === undefined ? undefined : `every ${autoCheckpointEverySeconds} s`,
  ].filter(Boolean);
  return `Limits: rollback gives up after ${rollbackTimeoutMs} ms; ${maxCheckpoints} checkpoints kept; automatic checkpoints ${auto.length > 0 ? auto.join(' or ') : 'off'}.`;
}

function resumeLine(tx: SessionTransactions): string {
  const r = tx.resume;
  if (r === undefined || r.count === 0) return 'Resumes: 0';
  const took = r.lastMs === undefined ? 'resuming now' : `last resume took ${r.lastMs} ms`;
  const down = r.downtimeMs === undefined ? '' : ` after ${r.downtimeMs} ms without a server`;
  return `Resumes: ${r.count}, ${took}${down}`;
}

/** browser_session_info's data (the contract's output): what a program would branch on. */
export function sessionData(
  sessionId: string,
  clientName: string,
  tabs: TabSummary[],
  tx: SessionTransactions,
): SessionInfoOutput {
  return {
    sessionId,
    client: clientName,
    tabs: tabs.map((t) => ({ index: t.index, url: t.url, current: t.current })),
    transactionOpen: tx.open !== undefined,
    checkpoints: tx.history.length,
    commits: tx.commits,
    rollbacks: tx.rollbacks,
  };
}

/** browser_session_info's text: the session, its tabs, its transactions and their counters. */
export function describeSession(
  sessionId: string,
  clientName: string,
  tabs: TabSummary[],
  tx: SessionTransactions,
): string {
  const last = tx.history.at(-1);
  return [
    `Session ${sessionId} (${clientName})`,
    `Tabs: ${tabs.length}`,
    ...tabs.map((t) => `- ${t.index}: ${t.current ? '[current] ' : ''}${t.url}`),
    tx.open
      ? `Transaction open since ${new Date(tx.open.takenAt).toISOString()}${tx.open.label ? ` (${tx.open.label})` : ''}, checkpoint ${tx.open.id}, ${tx.open.bytes} bytes`
      : 'No transaction open.',
    `Checkpoints kept: ${tx.history.length} (oldest first; roll back to one with browser_transaction_rollback {checkpoint})`,
    ...tx.history.map(checkpointLine),
    `Commits: ${tx.commits}, rollbacks: ${tx.rollbacks}` +
      (tx.lastRollbackMs === undefined
        ? ''
        : `, last rollback ${tx.lastRollbackMs} ms, slowest ${tx.maxRollbackMs ?? tx.lastRollbackMs} ms`) +
      `, checkpoint size ${(tx.open ?? last)?.bytes ?? 0} bytes`,
    resumeLine(tx),
    limitsLine(tx),
  ].join('\n');
}
