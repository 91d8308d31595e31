import {
  DEFAULT_TRANSACTION_LIMITS,
  type ResumeStats,
  type TransactionLimits,
} from '@browser-agent/protocol';
import { sessionArea } from '../../shared/storageAreas';
import type { Checkpoint } from './checkpoint';

export interface SessionTransactions {
  open: Checkpoint | undefined;
  /** Kept checkpoints (past transactions and automatic ones), newest last. */
  history: Checkpoint[];
  commits: number;
  rollbacks: number;
  lastRollbackMs: number | undefined;
  maxRollbackMs: number | undefined;
  /** Numbers checkpoint ids (cp1, cp2, …) within the session. */
  nextCheckpoint: number;
  /** Calls since the last checkpoint, and its time, for automatic checkpoints. */
  callsSinceCheckpoint: number;
  lastCheckpointAt: number | undefined;
  limits: TransactionLimits;
  /** From the daemon's session_start: how the session came back after a restart. */
  resume: ResumeStats | undefined;
}

function fresh(): SessionTransactions {
  return {
    open: undefined,
    history: [],
    commits: 0,
    rollbacks: 0,
    lastRollbackMs: undefined,
    maxRollbackMs: undefined,
    nextCheckpoint: 1,
    callsSinceCheckpoint: 0,
    lastCheckpointAt: undefined,
    limits: DEFAULT_TRANSACTION_LIMITS,
    resume: undefined,
  };
}

/** Call counts reach storage this long after a call; a worker stopped sooner loses them. */
const COUNT_SAVE_DELAY_MS = 1_000;

/**
 * Transaction state per session. Kept in the worker's memory and mirrored to storage.session, so
 * an open transaction survives a restart of the worker, the daemon or the MCP server.
 */
export class TransactionManager {
  readonly #bySession = new Map<string, SessionTransactions>();
  #loaded: Promise<void> | undefined;
  #saveQueued = false;

  async of(sessionId: string): Promise<SessionTransactions> {
    await this.#load();
    let tx = this.#bySession.get(sessionId);
    if (!tx) {
      tx = fresh();
      this.#bySession.set(sessionId, tx);
    }
    return tx;
  }

  /** The limits and resume counters the daemon sent in session_start. */
  async configure(
    sessionId: string,
    limits: TransactionLimits | undefined,
    resume: ResumeStats | undefined,
  ): Promise<void> {
    const tx = await this.of(sessionId);
    if (limits) tx.limits = limits;
    if (resume) tx.resume = resume;
    tx.history = tx.history.slice(-tx.limits.maxCheckpoints);
    await this.#save();
  }

  /** Gives a new checkpoint its id; the caller decides whether it opens a transaction. */
  async name(sessionId: string, checkpoint: Omit<Checkpoint, 'id'>): Promise<Checkpoint> {
    const tx = await this.of(sessionId);
    const named = { ...checkpoint, id: `cp${tx.nextCheckpoint++}` };
    tx.callsSinceCheckpoint = 0;
    tx.lastCheckpointAt = named.takenAt;
    return named;
  }

  async begin(sessionId: string, checkpoint: Checkpoint): Promise<void> {
    const tx = await this.of(sessionId);
    tx.open = checkpoint;
    await this.#save();
  }

  /** An automatic checkpoint: kept for rollback by id, no transaction opened. */
  async keep(sessionId: string, checkpoint: Checkpoint): Promise<void> {
    const tx = await this.of(sessionId);
    tx.history = [...tx.history, checkpoint].slice(-tx.limits.maxCheckpoints);
    await this.#save();
  }

  /**
   * Counts a call toward the next automatic checkpoint. Runs before every call, so the mirror to
   * storage is not awaited: writing every session's state (checkpoints included) was a round trip
   * to the browser process ahead of each handler.
   */
  async counted(sessionId: string): Promise<void> {
    const tx = await this.of(sessionId);
    tx.callsSinceCheckpoint++;
    tx.lastCheckpointAt ??= Date.now();
    this.#saveSoon();
  }

  async finish(
    sessionId: string,
    outcome: 'commit' | 'rollback',
    rollbackMs?: number,
  ): Promise<void> {
    const tx = await this.of(sessionId);
    if (tx.open) tx.history = [...tx.history, tx.open].slice(-tx.limits.maxCheckpoints);
    tx.open = undefined;
    if (outcome === 'commit') tx.commits++;
    else {
      tx.rollbacks++;
      tx.lastRollbackMs = rollbackMs;
      tx.maxRollbackMs = Math.max(tx.maxRollbackMs ?? 0, rollbackMs ?? 0);
    }
    await this.#save();
  }

  async forget(sessionId: string): Promise<void> {
    this.#bySession.delete(sessionId);
    await this.#save();
  }

  #load(): Promise<void> {
    this.#loaded ??= sessionArea()
      .get('transactions')
      .then((items) => {
        const saved = items['transactions'] as Record<string, SessionTransactions> | undefined;
        // Spread over fresh(): state a previous version of the worker saved lacks newer fields.
        for (const [id, tx] of Object.entries(saved ?? {}))
          this.#bySession.set(id, { ...fresh(), ...tx });
      });
    return this.#loaded;
  }

  /**
   * One write for the counts of a burst of calls, once the call is answered: written at once, it
   * ran while the call's CDP commands were in flight and delayed their answers.
   */
  #saveSoon(): void {
    if (this.#saveQueued) return;
    this.#saveQueued = true;
    setTimeout(() => {
      this.#saveQueued = false;
      this.#save().catch(() => undefined);
    }, COUNT_SAVE_DELAY_MS);
  }

  async #save(): Promise<void> {
    await sessionArea().set({ transactions: Object.fromEntries(this.#bySession) });
  }
}
