/** Console area: the tab's console messages. */
import { z } from 'zod';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const consoleOutput = z.object({
  messages: z.array(
    z.object({
      level: z.string(),
      text: z.string(),
      location: z.string().optional(),
      timestamp: z.number(),
    }),
  ),
});
export type ConsoleOutput = z.infer<typeof consoleOutput>;

export const consoleMessages = defineTool({
  name: 'browser_console_messages',
  title: 'Console messages',
  description: 'Console messages and uncaught errors of the current tab.',
  input: z.object({
    level: z
      .enum(['all', 'error', 'warning', 'info', 'debug'])
      .optional()
      .describe('Lowest level (all)'),
    sinceLastCall: z.boolean().optional().describe('Only new since last call'),
  }),
  output: consoleOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
});

/** The console area's tools, in the order tools/list shows them. */
export const consoleContracts = [consoleMessages] as const;
