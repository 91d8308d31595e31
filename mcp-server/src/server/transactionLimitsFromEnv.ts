import {
  DEFAULT_TRANSACTION_LIMITS,
  transactionLimitsSchema,
  type TransactionLimits,
} from '@browser-agent/protocol';

/** Environment variable → field of TransactionLimits (the `--config` file uses the field names). */
const VARIABLES = {
  BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: 'rollbackTimeoutMs',
  BROWSER_AGENT_MAX_CHECKPOINTS: 'maxCheckpoints',
  BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: 'autoCheckpointEveryCalls',
  BROWSER_AGENT_AUTO_CHECKPOINT_SECONDS: 'autoCheckpointEverySeconds',
} as const satisfies Record<string, keyof TransactionLimits>;

export class TransactionLimitsError extends Error {
  override readonly name = 'TransactionLimitsError';
}

/**
 * The session's transaction limits: the defaults (rollback gives up after 5 s, 10 checkpoints
 * kept, no automatic checkpoints) with whatever the environment sets. Throws a
 * TransactionLimitsError naming the variable and the allowed range when a value is unusable.
 */
export function transactionLimitsFromEnv(env: NodeJS.ProcessEnv): TransactionLimits {
  const limits: Record<string, number> = { ...DEFAULT_TRANSACTION_LIMITS };
  for (const [variable, field] of Object.entries(VARIABLES)) {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') continue;
    if (!/^\d+$/.test(raw))
      throw new TransactionLimitsError(`${variable} must be a whole number, got "${raw}".`);
    limits[field] = Number(raw);
  }
  const parsed = transactionLimitsSchema.safeParse(limits);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  const variable = Object.entries(VARIABLES).find(([, f]) => f === field)?.[0] ?? String(field);
  throw new TransactionLimitsError(
    `${variable} is out of range (${String(limits[String(field)])}): ${issue?.message ?? 'invalid'}.`,
  );
}
