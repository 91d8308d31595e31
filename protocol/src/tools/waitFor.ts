/** Wait-for area: wait for text, a selector, network idle or a time. */
import { z } from 'zod';
import { defineTool } from './contract.js';

const MAX_WAIT_SECONDS = 120;

export const waitFor = defineTool({
  name: 'browser_wait_for',
  title: 'Wait for',
  description: 'Wait for one of: text, textGone, selector state, network idle, time.',
  input: z.object({
    text: z.string().optional().describe('Text to appear'),
    textGone: z.string().optional().describe('Text to disappear'),
    selector: z.string().optional().describe('CSS selector'),
    state: z
      .enum(['attached', 'detached', 'visible', 'hidden'])
      .optional()
      .describe('Of selector (visible)'),
    networkIdle: z.boolean().optional().describe('No request for 500 ms'),
    time: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe('Seconds to wait'),
    timeout: z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe('Seconds before failing (10)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  timeoutMs: (args) => ((args.time ?? args.timeout ?? 10) + 10) * 1000,
  waitDefaultSeconds: 10,
  takesProjectPath: true,
  typedArgs: ['text'],
});

/** The waitFor area's tools, in the order tools/list shows them. */
export const waitForContracts = [waitFor] as const;
