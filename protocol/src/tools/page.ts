import { z } from 'zod';
import { defineTool } from './contract.js';

export const evaluate = defineTool({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Run a JavaScript function in the page and return its JSON result. With a ref, the element is passed as the first argument.',
  input: z.object({
    function: z
      .string()
      .min(1)
      .max(100_000)
      .describe('Function source, e.g. "() => document.title" or "(el) => el.value"'),
    element: z.string().max(300).optional().describe('Description of the element, for logs'),
    ref: z.string().max(40).optional().describe('Element ref from browser_snapshot to pass in'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const consoleMessages = defineTool({
  name: 'browser_console_messages',
  title: 'Console messages',
  description: "Console messages and uncaught errors of the session's current tab, oldest first.",
  input: z.object({
    level: z
      .enum(['all', 'error', 'warning', 'info', 'debug'])
      .optional()
      .describe('Lowest level to include (all by default)'),
  }),
  annotations: { readOnlyHint: true },
});

const MAX_WAIT_SECONDS = 120;

export const waitFor = defineTool({
  name: 'browser_wait_for',
  title: 'Wait for',
  description:
    'Wait until text appears, text disappears, or a number of seconds has passed (give exactly one).',
  input: z.object({
    text: z.string().min(1).max(1000).optional().describe('Text to wait for'),
    textGone: z.string().min(1).max(1000).optional().describe('Text to wait to disappear'),
    time: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe('Seconds to wait'),
    timeout: z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe('Seconds to wait for text or textGone before failing (default 10)'),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: (args) => ((args.time ?? args.timeout ?? 10) + 10) * 1000,
});
