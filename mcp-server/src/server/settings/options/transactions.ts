/** Checkpoints and rollback (docs/transactions.md); the extension keeps them, within these limits. */
import { DEFAULT_TRANSACTION_LIMITS, TRANSACTION_LIMIT_RANGES } from '@browser-agent/protocol';
import { setting } from '../setting.js';
import { limit } from './values.js';

const range = (key: keyof typeof TRANSACTION_LIMIT_RANGES) =>
  `${TRANSACTION_LIMIT_RANGES[key].min} to ${TRANSACTION_LIMIT_RANGES[key].max}`;

export const transactionSettings = {
  rollbackTimeoutMs: setting({
    key: 'transactions.rollbackTimeoutMs',
    env: 'BROWSER_AGENT_ROLLBACK_TIMEOUT_MS',
    kind: 'int',
    schema: limit('rollbackTimeoutMs'),
    default: DEFAULT_TRANSACTION_LIMITS.rollbackTimeoutMs,
    help: `How long a rollback may take, in ms (${range('rollbackTimeoutMs')}).`,
  }),
  maxCheckpoints: setting({
    key: 'transactions.maxCheckpoints',
    env: 'BROWSER_AGENT_MAX_CHECKPOINTS',
    kind: 'int',
    schema: limit('maxCheckpoints'),
    default: DEFAULT_TRANSACTION_LIMITS.maxCheckpoints,
    help: `Checkpoints kept per session; the oldest go first (${range('maxCheckpoints')}).`,
  }),
  autoCheckpointEveryCalls: setting({
    key: 'transactions.autoCheckpointEveryCalls',
    env: 'BROWSER_AGENT_AUTO_CHECKPOINT_CALLS',
    kind: 'int',
    schema: limit('autoCheckpointEveryCalls'),
    defaultText: 'off',
    help: `A checkpoint by itself after this many calls (${range('autoCheckpointEveryCalls')}).`,
  }),
  autoCheckpointEverySeconds: setting({
    key: 'transactions.autoCheckpointEverySeconds',
    env: 'BROWSER_AGENT_AUTO_CHECKPOINT_SECONDS',
    kind: 'int',
    schema: limit('autoCheckpointEverySeconds'),
    defaultText: 'off',
    help: `A checkpoint by itself after this many seconds (${range('autoCheckpointEverySeconds')}).`,
  }),
};
