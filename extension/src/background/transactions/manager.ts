import type { Checkpoint } from './checkpoint';

/** Most checkpoints a session keeps; the oldest are dropped. */
export const MAX_CHECKPOINTS = 10;

export interface SessionTransactions {
  open: Checkpoint | undefined;
  /** Past checkpoints (committed or rolled back), newest last. */
  history: Checkpoint[];
  commits: number;
  rollbacks: number;
  lastRollbackMs: number | undefined;
}

/**
 * Transaction state per session. Kept in the worker's memory and mirrored to storage.session, so
 * an open transaction survives a restart of the worker, the daemon or the MCP server.
 */
export class TransactionManager {
  readonly #bySession = new Map<string, SessionTransactions>();
  #loaded: Promise<void> | undefined;

  async of(sessionId: string): Promise<SessionTransactions> {
    await this.#load();
    let tx = this.#bySession.get(sessionId);
    if (!tx) {
      tx = { open: undefined, history: [], commits: 0, rollbacks: 0, lastRollbackMs: undefined };
      this.#bySession.set(sessionId, tx);
    }
    return tx;
  }

  async begin(sessionId: string, checkpoint: Checkpoint): Promise<void> {
    const tx = await this.of(sessionId);
    tx.open = checkpoint;
    await this.#save();
  }

  async finish(
    sessionId: string,
    outcome: 'commit' | 'rollback',
    rollbackMs?: number,
  ): Promise<void> {
    const tx = await this.of(sessionId);
    if (tx.open) tx.history = [...tx.history, tx.open].slice(-MAX_CHECKPOINTS);
    tx.open = undefined;
    if (outcome === 'commit') tx.commits++;
    else {
      tx.rollbacks++;
      tx.lastRollbackMs = rollbackMs;
    }
    await this.#save();
  }

  async forget(sessionId: string): Promise<void> {
    this.#bySession.delete(sessionId);
    await this.#save();
  }

  #load(): Promise<void> {
    this.#loaded ??= chrome.storage.session.get('transactions').then((items) => {
      const saved = items['transactions'] as Record<string, SessionTransactions> | undefined;
      for (const [id, tx] of Object.entries(saved ?? {})) this.#bySession.set(id, tx);
    });
    return this.#loaded;
  }

  async #save(): Promise<void> {
    await chrome.storage.session.set({ transactions: Object.fromEntries(this.#bySession) });
  }
}
