import { z } from 'zod';
import { defineTool } from './contract.js';

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
  annotations: { readOnlyHint: true },
});

/** The console area's tools, in the order tools/list shows them. */
export const consoleContracts = [consoleMessages] as const;
