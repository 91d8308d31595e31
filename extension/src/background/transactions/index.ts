/**
 * The worker's transaction services: what tabs did that cannot be undone, and each session's
 * transactions. One instance per Worker (no module-level state), so a test builds its own.
 */
import type { HandlerContext } from '../handlerContext';
import { autoCheckpoint } from './autoCheckpoint';
import { TransactionManager } from './manager';
import { SideEffects } from './sideEffects';

export class TransactionServices {
  readonly sideEffects = new SideEffects();
  readonly manager = new TransactionManager();

  /** The dispatcher's hook before each agent call (not before a batch's steps). */
  readonly beforeCall = (action: string, ctx: HandlerContext): Promise<void> =>
    autoCheckpoint(this.manager, action, ctx);
}
