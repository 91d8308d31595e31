import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSACTION_LIMITS } from '@browser-agent/protocol';
import { transactionLimitsFromEnv } from './transactionLimitsFromEnv.js';

describe('transactionLimitsFromEnv', () => {
  it('gives the defaults when nothing is set: 5 s rollback, 10 checkpoints, no automatic ones', () => {
    expect(transactionLimitsFromEnv({})).toEqual(DEFAULT_TRANSACTION_LIMITS);
    expect(DEFAULT_TRANSACTION_LIMITS).toEqual({ rollbackTimeoutMs: 5_000, maxCheckpoints: 10 });
  });

  it('reads every variable into its field', () => {
    expect(
      transactionLimitsFromEnv({
        BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '2500',
        BROWSER_AGENT_MAX_CHECKPOINTS: ' 3 ',
        BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: '4',
        BROWSER_AGENT_AUTO_CHECKPOINT_SECONDS: '60',
      }),
    ).toEqual({
      rollbackTimeoutMs: 2500,
      maxCheckpoints: 3,
      autoCheckpointEveryCalls: 4,
      autoCheckpointEverySeconds: 60,
    });
  });

  it('names the variable when a value is not a whole number', () => {
    expect(() => transactionLimitsFromEnv({ BROWSER_AGENT_MAX_CHECKPOINTS: 'ten' })).toThrow(
      'BROWSER_AGENT_MAX_CHECKPOINTS must be a whole number, got "ten".',
    );
    expect(() => transactionLimitsFromEnv({ BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: '-1' })).toThrow(
      /BROWSER_AGENT_AUTO_CHECKPOINT_CALLS/,
    );
  });

  it('names the variable and its range when a value is out of range', () => {
    expect(() => transactionLimitsFromEnv({ BROWSER_AGENT_MAX_CHECKPOINTS: '0' })).toThrow(
      /BROWSER_AGENT_MAX_CHECKPOINTS is out of range \(0\).*>=1/,
    );
    expect(() => transactionLimitsFromEnv({ BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '50' })).toThrow(
      /BROWSER_AGENT_ROLLBACK_TIMEOUT_MS is out of range \(50\)/,
    );
  });
});
