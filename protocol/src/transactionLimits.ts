import { z } from './zod.js';

/**
 * How a session's transactions behave, set by the MCP server (environment or config file) and
 * carried to the extension in `session_start`. Automatic checkpoints are off unless asked for.
 */
/**
 * The range each limit may take, inclusive. The server's config schema checks settings against
 * the same ranges, so a bad value is refused at startup with the name of its key.
 */
export const TRANSACTION_LIMIT_RANGES = {
  rollbackTimeoutMs: { min: 100, max: 600_000 },
  maxCheckpoints: { min: 1, max: 100 },
  autoCheckpointEveryCalls: { min: 1, max: 10_000 },
  autoCheckpointEverySeconds: { min: 1, max: 86_400 },
} as const;

const inRange = (r: { min: number; max: number }) => z.number().int().min(r.min).max(r.max);

export const transactionLimitsSchema = z.object({
  /** A rollback that takes longer is abandoned and leaves the agent a fresh tab. */
  rollbackTimeoutMs: inRange(TRANSACTION_LIMIT_RANGES.rollbackTimeoutMs),
  /** Checkpoints kept per session; the oldest are dropped. */
  maxCheckpoints: inRange(TRANSACTION_LIMIT_RANGES.maxCheckpoints),
  /** Take a checkpoint before a call once this many calls ran since the last one. */
  autoCheckpointEveryCalls: inRange(TRANSACTION_LIMIT_RANGES.autoCheckpointEveryCalls).optional(),
  /** Take a checkpoint before a call once this many seconds passed since the last one. */
  autoCheckpointEverySeconds: inRange(
    TRANSACTION_LIMIT_RANGES.autoCheckpointEverySeconds,
  ).optional(),
});
export type TransactionLimits = z.infer<typeof transactionLimitsSchema>;

export const DEFAULT_TRANSACTION_LIMITS: TransactionLimits = {
  rollbackTimeoutMs: 5_000,
  maxCheckpoints: 10,
};

/** How the session came back after its server (or the daemon) went away; shown to the agent. */
export const resumeStatsSchema = z.object({
  count: z.number().int().nonnegative(),
  /** From the resuming server's register to the first call the extension answered. */
  lastMs: z.number().nonnegative().optional(),
  /** How long the session had no server before it was taken back. */
  downtimeMs: z.number().nonnegative().optional(),
});
export type ResumeStats = z.infer<typeof resumeStatsSchema>;

/** One call of the write-ahead log, redacted, as a resumed server gets it back. */
export const loggedCallSchema = z.object({
  t: z.string().max(40),
  tool: z.string().max(100),
  args: z.string().max(2_000),
  /** 'ok', an error code, or absent when the call never got an answer (it was cut off). */
  code: z.string().max(60).optional(),
  ms: z.number().nonnegative().optional(),
});
export type LoggedCall = z.infer<typeof loggedCallSchema>;
