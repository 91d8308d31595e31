/**
 * `--tool-names executeautomation`: the tool names and parameter names of the executeautomation
 * mcp-playwright server, for agents whose prompts were written against it. Each alias is
 * selector-based, like the original, and runs one or more of our own tools; nothing here talks
 * to the browser directly. Parameters the original takes but that make no sense for a browser we
 * do not own (browserType, headless) are accepted and ignored.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  BridgeError,
  ErrorCode,
  type ToolAnnotations,
  type ToolArgs,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';

/** Runs one of our tools the way tools/call would (server steps and timeouts included). */
export type InvokeTool = <N extends ToolName>(name: N, args: ToolArgs<N>) => Promise<ToolResult>;

export interface AliasContext {
  invoke: InvokeTool;
  /** Where files go when the agent names no directory (outputDir setting). */
  outputDir: string | undefined;
  /** Per MCP session: whether the last console read asked to clear what it returned. */
  memory: { consoleCleared: boolean };
}

export interface ToolAlias {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  /** As a contract's: the arguments that carry typed text, which no log shows raw. */
  typedArgs?: readonly string[];
  run(args: Record<string, unknown>, ctx: AliasContext): Promise<ToolResult>;
}

export const TOOL_NAME_SETS = ['default', 'executeautomation'] as const;
export type ToolNameSet = (typeof TOOL_NAME_SETS)[number];

const selector = z.string().min(1).describe('CSS selector');

function str(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  return typeof value === 'string' ? value : '';
}

function num(args: Record<string, unknown>, key: string): number | undefined {
  const value = args[key];
  return typeof value === 'number' ? value : undefined;
}

/** A script given as a function runs as one; anything else is evaluated like page.evaluate(string). */
function asFunction(script: string): string {
  const s = script.trim();
  if (/^(async\s+)?(function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/.test(s)) return s;
  return `() => (0, eval)(${JSON.stringify(s)})`;
}

/** Keeps the console lines of the given type that contain `search`, the newest `limit`. */
function filterConsole(result: ToolResult, type: string, search: string, limit?: number) {
  const wanted = type === 'exception' ? 'error' : type;
  const content = result.content.map((part) => {
    if (part.type !== 'text') return part;
    const lines = part.text.split('\n');
    const isEntry = (l: string) => /^\[(error|warning|info|debug|log)\] /.test(l);
    let kept = lines.filter(
      (l) => isEntry(l) && (wanted === 'all' || l.startsWith(`[${wanted}] `)) && l.includes(search),
    );
    if (limit !== undefined) kept = kept.slice(-limit);
    let next = 0;
    const out = lines.flatMap((l) => (isEntry(l) ? (next++ === 0 ? kept : []) : [l]));
    return { ...part, text: out.join('\n') };
  });
  return { content };
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

export const EXECUTEAUTOMATION_ALIASES: readonly ToolAlias[] = [
  {
    name: 'playwright_navigate',
    title: 'Navigate (executeautomation name)',
    description: 'Navigate to a URL. Same as browser_navigate; width/height set the viewport.',
    input: z.object({
      url: z.string().min(1).describe('URL to navigate to'),
      width: z.number().int().positive().optional().describe('Viewport width, px'),
      height: z.number().int().positive().optional().describe('Viewport height, px'),
      timeout: z.number().positive().optional().describe('Ignored; see timeouts.navigationMs'),
      waitUntil: z.string().optional().describe('Ignored; waits for load'),
      browserType: z.string().optional().describe('Ignored; always Chromium'),
      headless: z.boolean().optional().describe('Ignored; set at server start'),
    }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async run(args, { invoke }) {
      const result = await invoke('browser_navigate', { url: str(args, 'url') });
      const width = num(args, 'width');
      const height = num(args, 'height');
      if (width === undefined && height === undefined) return result;
      const resized = await invoke('browser_resize', {
        width: width ?? 1280,
        height: height ?? 720,
      });
      return { content: [...result.content, ...resized.content] };
    },
  },
  {
    name: 'playwright_screenshot',
    title: 'Screenshot (executeautomation name)',
    description: 'Screenshot of the page or of one element; savePng also writes it to a file.',
    input: z.object({
      name: z.string().min(1).describe('Name for the screenshot'),
      selector: selector.optional(),
      fullPage: z.boolean().optional().describe('Whole page'),
      savePng: z.boolean().optional().describe('Also save a PNG file'),
      downloadsDir: z.string().optional().describe('Directory for savePng (outputDir)'),
      storeBase64: z.boolean().optional().describe('Ignored; the image is always returned'),
      width: z.number().optional().describe('Ignored'),
      height: z.number().optional().describe('Ignored'),
    }),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    async run(args, { invoke, outputDir }) {
      let filename: string | undefined;
      if (args['savePng'] === true) {
        const dir = str(args, 'downloadsDir') || outputDir;
        if (dir === undefined) {
          throw new BridgeError(
            ErrorCode.INVALID_ARGS,
            'savePng needs a directory to save into.',
            'Pass downloadsDir (an absolute path), or start the server with --output-dir.',
          );
        }
        const base = str(args, 'name').replace(/[^\w.-]+/g, '_');
        filename = path.resolve(dir, `${base}-${timestamp()}.png`);
      }
      return invoke('browser_take_screenshot', {
        ...(str(args, 'selector') ? { selector: str(args, 'selector') } : {}),
        ...(args['fullPage'] === true ? { fullPage: true } : {}),
        ...(filename !== undefined ? { filename } : {}),
      });
    },
  },
  {
    name: 'playwright_click',
    title: 'Click (executeautomation name)',
    description: 'Click the element a CSS selector matches.',
    input: z.object({ selector }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (args, { invoke }) => invoke('browser_click', { selector: str(args, 'selector') }),
  },
  {
    name: 'playwright_fill',
    title: 'Fill (executeautomation name)',
    description: 'Replace the text of an input field.',
    input: z.object({ selector, value: z.string().describe('Value to fill') }),
    typedArgs: ['value'],
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (args, { invoke }) =>
      invoke('browser_type', {
        selector: str(args, 'selector'),
        text: str(args, 'value'),
        clear: true,
      }),
  },
  {
    name: 'playwright_select',
    title: 'Select (executeautomation name)',
    description: 'Choose an option of a <select> by value or label.',
    input: z.object({ selector, value: z.string().describe('Value to select') }),
    typedArgs: ['value'],
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (args, { invoke }) =>
      invoke('browser_select_option', {
        selector: str(args, 'selector'),
        values: [str(args, 'value')],
      }),
  },
  {
    name: 'playwright_hover',
    title: 'Hover (executeautomation name)',
    description: 'Move the mouse over the element a CSS selector matches.',
    input: z.object({ selector }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (args, { invoke }) => invoke('browser_hover', { selector: str(args, 'selector') }),
  },
  {
    name: 'playwright_evaluate',
    title: 'Evaluate (executeautomation name)',
    description: 'Run JavaScript in the page and return its result.',
    input: z.object({ script: z.string().min(1).describe('JavaScript code to execute') }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (args, { invoke }) =>
      invoke('browser_evaluate', { function: asFunction(str(args, 'script')) }),
  },
  {
    name: 'playwright_get_content',
    title: 'Page content (executeautomation name)',
    description: 'Text of the page as Markdown, or the text of one element.',
    input: z.object({ selector: selector.optional() }),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    run: (args, { invoke }) => {
      const sel = str(args, 'selector');
      if (sel === '') return invoke('browser_get_text', {});
      return invoke('browser_evaluate', { function: '(el) => el.innerText', selector: sel });
    },
  },
  {
    name: 'playwright_get_console_logs',
    title: 'Console logs (executeautomation name)',
    description: 'Console messages of the current tab, filtered by type and text.',
    input: z.object({
      type: z
        .enum(['all', 'error', 'warning', 'log', 'info', 'debug', 'exception'])
        .optional()
        .describe('Only this type (all)'),
      search: z.string().optional().describe('Only messages containing this'),
      limit: z.number().int().positive().optional().describe('Newest N only'),
      clear: z.boolean().optional().describe('Next call shows only newer messages'),
    }),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args, { invoke, memory }) {
      // The extension remembers what the last read showed, so "cleared" = only newer ones.
      const result = await invoke('browser_console_messages', {
        ...(memory.consoleCleared ? { sinceLastCall: true } : {}),
      });
      memory.consoleCleared = args['clear'] === true;
      return filterConsole(
        result,
        str(args, 'type') || 'all',
        str(args, 'search'),
        num(args, 'limit'),
      );
    },
  },
];

export function aliasesFor(set: ToolNameSet): readonly ToolAlias[] {
  return set === 'executeautomation' ? EXECUTEAUTOMATION_ALIASES : [];
}
