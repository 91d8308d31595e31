import { findContract } from '@browser-agent/protocol';
import type { HandlerContext } from '../handlerContext';
import { capture } from './checkpoint';
import type { TransactionManager } from './manager';

/**
 * Runs before each call of an agent: once `autoCheckpointEveryCalls` calls ran, or
 * `autoCheckpointEverySeconds` passed, since the last checkpoint, the session's state is kept as
 * an automatic checkpoint that browser_transaction_rollback can restore by id. Taken before the
 * call, so rolling back to it undoes that call too. Not while a transaction is open: its own
 * checkpoint covers that stretch. A checkpoint that fails never fails the agent's call.
 */
export async function autoCheckpoint(
  manager: TransactionManager,
  action: string,
  ctx: HandlerContext,
): Promise<void> {
  // Calls that manage checkpoints themselves, or only read them, neither count nor trigger one.
  if (findContract(action)?.countsForCheckpoints === false) return;
  const tx = await manager.of(ctx.sessionId);
  const { autoCheckpointEveryCalls: calls, autoCheckpointEverySeconds: seconds } = tx.limits;
  // Counted even before the limits are known: the session's first calls can run while its
  // session_start is still being stored, and skipping them put every checkpoint a call late.
  if (calls === undefined && seconds === undefined) {
    await manager.counted(ctx.sessionId);
    return;
  }
  const due =
    (calls !== undefined && tx.callsSinceCheckpoint >= calls) ||
    (seconds !== undefined &&
      tx.lastCheckpointAt !== undefined &&
      Date.now() - tx.lastCheckpointAt >= seconds * 1000);
  if (due && tx.open === undefined && (await ctx.listTabs()).length > 0) {
    try {
      const taken = await capture(ctx, 'auto', undefined);
      await manager.keep(ctx.sessionId, await manager.name(ctx.sessionId, taken));
    } catch {
      // The agent asked for its call, not for a checkpoint; the next call tries again.
    }
  }
  await manager.counted(ctx.sessionId);
}
