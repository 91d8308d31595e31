/** Wait-for area: wait for text, a selector, network idle or a time. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

const MAX_WAIT_SECONDS = 120;
/** How much of a waited-for text the panel's log line quotes. */
const MAX_QUOTED_CHARS = 60;

function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line}"`;
}

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
  // The text a wait looks for is text the page shows anyway; the details still hide it.
  logSubject: (args) => {
    const parts: string[] = [];
    if (args.text !== undefined) parts.push(`the text ${quoted(args.text)}`);
    if (args.textGone !== undefined) parts.push(`the text ${quoted(args.textGone)} to go`);
    if (args.selector !== undefined)
      parts.push(`${quoted(args.selector)} to be ${args.state ?? 'visible'}`);
    if (args.networkIdle === true) parts.push('the network to be idle');
    if (args.time !== undefined) parts.push(`${args.time} s`);
    if (parts.length === 0) return undefined;
    const limit = args.time === undefined && args.timeout !== undefined;
    return `${parts.join(' and ')}${limit ? ` (up to ${args.timeout} s)` : ''}`;
  },
});

/** The waitFor area's tools, in the order tools/list shows them. */
export const waitForContracts = [waitFor] as const;
