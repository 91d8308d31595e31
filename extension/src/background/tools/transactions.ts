import {
  BridgeError,
  ErrorCode,
  findContract,
  isToolName,
  textResult,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import type { Handler, HandlerContext } from '../handlerContext';
import { capture, type Checkpoint } from '../transactions/checkpoint';
import { describeSession } from '../transactions/sessionInfo';
import type { TransactionManager } from '../transactions/manager';
import { rollbackTo, type RollbackReport } from '../transactions/rollback';
import type { SideEffect, SideEffects } from '../transactions/sideEffects';

/** Runs one tool with validated arguments in the same session (the dispatcher's own path). */
export type InvokeTool = (tool: ToolName, args: unknown, ctx: HandlerContext) => Promise<unknown>;

/** What the transaction tools run on: the worker's services and its dispatcher's own path. */
export interface TransactionDeps {
  manager: TransactionManager;
  sideEffects: SideEffects;
  invoke: () => InvokeTool;
}

function describeRollback(
  checkpoint: Checkpoint,
  report: RollbackReport,
  effects: SideEffect[],
): string {
  const lines = [`Rolled back to ${checkpoint.id} (${checkpoint.kind}) in ${report.ms} ms.`];
  if (report.gaveUp)
    lines.push(
      `Rollback took over its ${report.limitMs} ms limit and was abandoned; a fresh tab is open.`,
    );
  for (const r of report.restored) lines.push(`- restored ${r}`);
  for (const c of report.closed) lines.push(`- closed tab opened since: ${c}`);
  lines.push(...irreversible(effects));
  return lines.join('\n');
}

/** What happened outside the browser is said, never hidden. */
function irreversible(effects: SideEffect[]): string[] {
  if (effects.length === 0)
    return ['Nothing irreversible happened (no non-GET requests, no downloads).'];
  return [
    'Could not be undone (already sent or saved outside the browser):',
    ...effects.map((e) => `- ${e.method} ${e.url}`),
  ];
}

async function sessionTabIds(ctx: HandlerContext, extra: readonly number[]): Promise<number[]> {
  return [...new Set([...(await ctx.listTabs()).map((t) => t.tabId), ...extra])];
}

export function transactionsHandlers(deps: TransactionDeps): {
  browser_transaction_begin: Handler<'browser_transaction_begin'>;
  browser_transaction_commit: Handler<'browser_transaction_commit'>;
  browser_transaction_rollback: Handler<'browser_transaction_rollback'>;
  browser_batch: Handler<'browser_batch'>;
  browser_session_info: Handler<'browser_session_info'>;
} {
  const { manager, sideEffects } = deps;

  const requireOpen = async (ctx: HandlerContext) => {
    const tx = await manager.of(ctx.sessionId);
    if (!tx.open) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        'No transaction is open.',
        'Call browser_transaction_begin first, or name a kept checkpoint (browser_session_info lists them).',
      );
    }
    return tx.open;
  };

  /** The open transaction's checkpoint, or a kept one the agent named. */
  const target = async (ctx: HandlerContext, id: string | undefined): Promise<Checkpoint> => {
    if (id === undefined) return requireOpen(ctx);
    const tx = await manager.of(ctx.sessionId);
    const found = [...tx.history, ...(tx.open ? [tx.open] : [])].find((c) => c.id === id);
    if (!found) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `No checkpoint ${id} is kept (${tx.history.length} kept, at most ${tx.limits.maxCheckpoints}).`,
        'Call browser_session_info for the ids of the kept checkpoints.',
      );
    }
    return found;
  };

  const rollback = async (ctx: HandlerContext, id?: string): Promise<string> => {
    const checkpoint = await target(ctx, id);
    const tabIds = await sessionTabIds(
      ctx,
      checkpoint.tabs.map((t) => t.tabId),
    );
    const effects = sideEffects.since(tabIds, checkpoint.takenAt);
    const { limits } = await manager.of(ctx.sessionId);
    const report = await rollbackTo(ctx, checkpoint, limits.rollbackTimeoutMs);
    await manager.finish(ctx.sessionId, 'rollback', report.ms);
    return describeRollback(checkpoint, report, effects);
  };

  return {
    browser_transaction_begin: async (args, ctx) => {
      const tx = await manager.of(ctx.sessionId);
      if (tx.open) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          'A transaction is already open.',
          'Commit or roll it back before beginning another.',
        );
      }
      await ctx.ensureTab();
      const checkpoint = await manager.name(ctx.sessionId, await capture(ctx, 'begin', args.label));
      await manager.begin(ctx.sessionId, checkpoint);
      return textResult(
        `Checkpoint ${checkpoint.id} taken of ${checkpoint.tabs.length} tab(s), ${checkpoint.bytes} bytes. Roll back with browser_transaction_rollback.`,
      );
    },

    browser_transaction_commit: async (_args, ctx) => {
      const checkpoint = await requireOpen(ctx);
      const tabIds = await sessionTabIds(
        ctx,
        checkpoint.tabs.map((t) => t.tabId),
      );
      const effects = sideEffects.since(tabIds, checkpoint.takenAt);
      await manager.finish(ctx.sessionId, 'commit');
      return textResult(
        `Committed: the changes are kept. ${effects.length} non-GET request(s) or download(s) happened during it.`,
      );
    },

    browser_transaction_rollback: async (args, ctx) =>
      textResult(await rollback(ctx, args.checkpoint)),

    browser_batch: async (args, ctx) => {
      const tx = await manager.of(ctx.sessionId);
      if (tx.open) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          'A transaction is already open.',
          'Commit or roll it back before browser_batch.',
        );
      }
      // A step whose contract says allowedInBatch: false would nest transactions.
      const bad = args.steps.findIndex(
        (s) => !isToolName(s.tool) || findContract(s.tool)?.allowedInBatch === false,
      );
      if (bad >= 0) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `Step ${bad + 1}: "${args.steps[bad]?.tool ?? ''}" cannot run in a batch.`,
          'Use browser_* tools other than browser_batch and the transaction tools.',
        );
      }
      await ctx.ensureTab();
      await manager.begin(
        ctx.sessionId,
        await manager.name(ctx.sessionId, await capture(ctx, 'batch', 'browser_batch')),
      );
      const content: ToolResult['content'] = [];
      for (const [i, step] of args.steps.entries()) {
        const tool = step.tool as ToolName;
        try {
          const result = (await deps.invoke()(tool, step.args ?? {}, ctx)) as ToolResult;
          content.push({ type: 'text', text: `Step ${i + 1} (${tool}): ok` }, ...result.content);
        } catch (err) {
          const cause =
            err instanceof BridgeError
              ? err
              : new BridgeError(
                  ErrorCode.INTERNAL,
                  err instanceof Error ? err.message : String(err),
                );
          const restored = await rollback(ctx);
          throw new BridgeError(
            cause.code,
            `Step ${i + 1} of ${args.steps.length} (${tool}) failed: ${cause.message}\n${restored}`,
            cause.hint ??
              'Fix that step and run the batch again; the browser is back where it started.',
          );
        }
      }
      await manager.finish(ctx.sessionId, 'commit');
      content.push({ type: 'text', text: `All ${args.steps.length} steps succeeded; committed.` });
      return { content };
    },

    browser_session_info: async (_args, ctx) =>
      textResult(
        describeSession(
          ctx.sessionId,
          ctx.client.name,
          await ctx.listTabs(),
          await manager.of(ctx.sessionId),
        ),
      ),
  };
}
