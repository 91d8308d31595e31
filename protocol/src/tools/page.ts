import { z } from 'zod';
import { consoleOutput, evaluateOutput, networkRequestsOutput } from './outputs.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

export const evaluate = defineTool({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Run a JS function in the page and return its JSON result, unfiltered. A target is its argument.',
  input: z.object({
    function: z
      .string()
      .min(1)
      .max(100_000)
      .describe('e.g. "() => document.title" or "(el) => el.value"'),
    ...elementTarget,
  }),
  output: evaluateOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
});

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
});

export const networkRequests = defineTool({
  name: 'browser_network_requests',
  title: 'Network requests',
  description:
    'Requests of the current tab since it was opened or last navigated, with ids for browser_network_request.',
  input: z.object({
    url: z.string().max(1000).optional().describe('Substring of the URL'),
    method: z.string().max(20).optional().describe('e.g. POST'),
    status: z.number().int().min(0).max(999).optional().describe('HTTP status; 0 = failed'),
    type: z.string().max(40).optional().describe('Resource type, e.g. Fetch, XHR, Document'),
  }),
  output: networkRequestsOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

export const networkRequest = defineTool({
  name: 'browser_network_request',
  title: 'Network request details',
  description: 'Headers and bodies of one request from browser_network_requests.',
  input: z.object({
    id: z.string().min(1).max(100).describe('Request id'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('Cut bodies here (20000)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

export const storage = defineTool({
  name: 'browser_storage',
  title: 'Storage',
  description:
    "The current page's localStorage, sessionStorage or cookies (cookie values hidden); or clear one of them.",
  input: z.object({
    area: z.enum(['local', 'session', 'cookies']).describe('Which storage'),
    clear: z.boolean().optional().describe('Empty it instead of reading it'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  group: 'storage',
});
