/** Transactions area: checkpoints, rollback, batches and the session summary. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const sessionInfoOutput = z.object({
  sessionId: z.string(),
  client: z.string(),
  tabs: z.array(z.object({ index: z.number(), url: z.string(), current: z.boolean() })),
  transactionOpen: z.boolean(),
  checkpoints: z.number(),
  commits: z.number(),
  rollbacks: z.number(),
});
export type SessionInfoOutput = z.infer<typeof sessionInfoOutput>;

export const transactionBegin = defineTool({
  name: 'browser_transaction_begin',
  title: 'Begin transaction',
  description:
    'Checkpoint the session (its tabs and their URLs, cookies, localStorage, sessionStorage) so browser_transaction_rollback can restore it.',
  input: z.object({
    label: z
      .string()
      .max(200)
      .optional()
      .describe('Name for the checkpoint, shown in browser_session_info'),
  }),
  group: 'transactions',
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  countsForCheckpoints: false,
  allowedInBatch: false,
});

export const transactionCommit = defineTool({
  name: 'browser_transaction_commit',
  title: 'Commit transaction',
  description:
    'Keep the changes made since browser_transaction_begin. Its checkpoint stays listed in browser_session_info.',
  input: z.object({}),
  group: 'transactions',
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  countsForCheckpoints: false,
  allowedInBatch: false,
});

export const transactionRollback = defineTool({
  name: 'browser_transaction_rollback',
  title: 'Roll back transaction',
  description:
    'Restore the checkpoint of browser_transaction_begin, or a kept one by id: close tabs opened since, restore cookies and storage, return tabs to their URLs. Lists what could not be undone.',
  input: z.object({
    checkpoint: z
      .string()
      .regex(/^cp\d+$/)
      .optional()
      .describe(
        'Id of a kept checkpoint (e.g. "cp3", automatic or from a past transaction), listed by browser_session_info; default: the open transaction',
      ),
  }),
  group: 'transactions',
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutMs: () => 20_000,
  countsForCheckpoints: false,
  allowedInBatch: false,
});

const MAX_BATCH_STEPS = 50;

export const batch = defineTool({
  name: 'browser_batch',
  title: 'Run steps atomically',
  description:
    'Run tool calls in order as one transaction. The first failing step stops the batch and rolls everything back; the result says which step failed, why, and what was restored.',
  input: z.object({
    steps: z
      .array(
        z.object({
          tool: z.string().min(1).max(100).describe('Tool name, e.g. browser_click'),
          args: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments"),
        }),
      )
      .min(1)
      .max(MAX_BATCH_STEPS)
      .describe('The steps, run one after another'),
  }),
  group: 'transactions',
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutMs: (args) => 30_000 + args.steps.length * 30_000,
  countsForCheckpoints: false,
  allowedInBatch: false,
  permission: 'steps',
});

export const sessionInfo = defineTool({
  name: 'browser_session_info',
  title: 'Session info',
  description:
    'This session: its tabs, the open transaction, kept checkpoints (ids for browser_transaction_rollback; automatic ones if configured), counters (commits, rollbacks, rollback time, checkpoint size, resume time) and, after a restart, its last calls.',
  input: z.object({}),
  group: 'transactions',
  output: sessionInfoOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  countsForCheckpoints: false,
  repeatsResumeNotice: true,
});

/** The transactions area's tools, in the order tools/list shows them. */
export const transactionsContracts = [
  transactionBegin,
  transactionCommit,
  transactionRollback,
  batch,
  sessionInfo,
] as const;
