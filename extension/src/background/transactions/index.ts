import type { HandlerContext } from '../handlerContext';
import { autoCheckpoint } from './autoCheckpoint';
import { transactionHandlers, type InvokeTool } from '../tools/transactions';
import { TransactionManager } from './manager';
import { SideEffects } from './sideEffects';

/** One per worker: what tabs did that cannot be undone, and each session's transactions. */
export const sideEffects = new SideEffects();
export const transactions = new TransactionManager();

let invoker: InvokeTool | undefined;

/** The dispatcher's own validated path, bound by the worker (it owns the dispatcher). */
export function bindInvoker(invoke: InvokeTool): void {
  invoker = invoke;
}

export const transactionToolHandlers = transactionHandlers({
  manager: transactions,
  sideEffects,
  invoke: () => {
    if (!invoker) throw new Error('browser_batch ran before the worker bound its dispatcher');
    return invoker;
  },
});

/** The dispatcher's hook before each agent call (not before a batch's steps). */
export const beforeCall = (action: string, ctx: HandlerContext): Promise<void> =>
  autoCheckpoint(transactions, action, ctx);
