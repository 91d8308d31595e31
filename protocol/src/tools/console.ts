/** Console area: the tab's console messages. */
import { z } from '../zod.js';
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

/** Levels from the most severe; a level shows itself and every level before it. */
export const CONSOLE_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

export const consoleMessages = defineTool({
  name: 'browser_console_messages',
  title: 'Console messages',
  description: 'Console messages and uncaught errors since the tab last navigated.',
  input: z.object({
    level: z
      .enum([...CONSOLE_LEVELS, 'all'])
      .optional()
      .describe('Lowest level (info)'),
    all: z.boolean().optional().describe('Also older pages'),
    sinceLastCall: z.boolean().optional().describe('Only new since last call'),
    filename: z.string().optional().describe('Save to file'),
  }),
  output: consoleOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  serverStep: 'saveResultText',
});

/**
 * Every call's response carries the current tab's console entries that are new since the last
 * response (ToolResult `serverData.consoleEvents`); the MCP server writes them to the console log
 * files of the output directory and reports them briefly.
 */
export const consoleEventsSchema = z.object({
  tabId: z.number(),
  entries: z.array(
    z.object({
      /** The tab's main-frame navigation the entry was logged in (a new log file each). */
      nav: z.number(),
      level: z.enum(['error', 'warning', 'info', 'log', 'debug']),
      text: z.string(),
      location: z.string().optional(),
    }),
  ),
  /** New entries left out (the oldest) past the per-response cap. */
  omitted: z.number(),
});
export type ConsoleEvents = z.infer<typeof consoleEventsSchema>;

/** The console area's tools, in the order tools/list shows them. */
export const consoleContracts = [consoleMessages] as const;
