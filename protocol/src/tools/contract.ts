import type { z } from 'zod';

/**
 * MCP tool annotations; declared once per contract and passed to the SDK as they are. All four
 * are required: clients read a missing hint as the spec's default (destructive, open-world),
 * which is wrong for most of our tools.
 */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Capability groups: `core` is always listed; the others only when the server is started with
 * `--caps <group>`, because every listed tool costs the agent tokens on every turn.
 */
export const TOOL_GROUPS = [
  'core',
  'network',
  'storage',
  'devtools',
  'transactions',
  'testing',
  'vision',
  'pdf',
] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/**
 * One tool = one contract (here, shared) + one handler (in the extension). The MCP server
 * registers every contract in a loop, so adding a tool never touches the server.
 */
export interface ToolContract<N extends string = string, S extends z.ZodObject = z.ZodObject> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  readonly annotations: ToolAnnotations;
  /**
   * The tool's structured result (MCP outputSchema): its handler returns it as `structured` with
   * every success, beside the text.
   */
  readonly output?: z.ZodObject;
  /** Defaults to core. */
  readonly group?: ToolGroup;
  /** How long the bridge waits for this tool when the caller gives no timeout of its own. */
  readonly timeoutMs?: (args: z.infer<S>) => number;

  // Per-tool facts, read once in the registry loop of each side (never a side table of names).

  /** Which configured timeout (timeouts.navigationMs or actionMs) may raise the bridge's deadline. */
  readonly timeoutKind?: 'navigation' | 'action';
  /**
   * May be the first call to open the browser: in launch mode with no project yet it takes an
   * optional `projectPath` (the MCP server consumes it; the extension never sees it).
   */
  readonly takesProjectPath?: true;
  /** False for calls that manage or only read checkpoints: they neither count nor trigger one. */
  readonly countsForCheckpoints?: false;
  /** False for the tools that would nest transactions inside browser_batch. */
  readonly allowedInBatch?: false;
  /** False when the call leaves no tab to report an open dialog for (browser_close). */
  readonly reportsModalState?: false;
  /**
   * False for tools that work beside the current tab (browser_tabs opens, selects and closes
   * tabs): a dialog open on the current tab does not answer them DIALOG_OPEN.
   */
  readonly blockedByDialog?: false;
  /** `script`: asked about first when its page holds a guarded secret form (askBeforeSecretSubmit). */
  readonly approval?: 'script';
  /**
   * Arguments that are typed into the page (`text`, `fields[].value`): one that equals the name
   * of a `--secrets` entry is replaced by its value on the server, on the way to the browser.
   */
  readonly secretArgs?: readonly string[];
  /**
   * Other arguments that carry what the agent typed, chose or expects a field to hold (a dialog's
   * prompt text, a cookie's value, the text looked for): with `secretArgs`, what no log of calls
   * shows raw (typedArgs.ts). Paths as in `secretArgs`.
   */
  readonly typedArgs?: readonly string[];
  /**
   * `steps`: the permission gate (issue #19) asks about each of its steps, not about the call
   * itself (browser_batch). Read-only tools (annotations.readOnlyHint) are never asked about.
   */
  readonly permission?: 'steps';
  /** A step the MCP server runs around the call, where the file system and a DOM library are. */
  readonly serverStep?: ServerStepKind;
  /** Shows the resumed session's last calls every time, not only with the first result. */
  readonly repeatsResumeNotice?: true;
  /**
   * A wait: its `time` / `timeout` arguments are seconds (this many when neither is given), which
   * the server's progress reports and its client-patience check read.
   */
  readonly waitDefaultSeconds?: number;
  /**
   * What a call is about, in words, for the side panel's log line when the title alone says too
   * little: "Wait for" + `the text "Done"`. Given the call's validated arguments.
   */
  readonly logSubject?: (args: z.infer<S>) => string | undefined;
  /**
   * The verb a permission question uses for this tool ("Let Claude Code click the button
   * “Send”…", extension/src/background/approvals/questionTarget.ts); else the lowercased title.
   */
  readonly askVerb?: string;
  /**
   * Where a call without an element or a point lands: keys go to the focused element (`focus`),
   * mouse buttons and the wheel to where the mouse is (`pointer`). The site lists judge that
   * frame (extension/src/background/approvals/actionSites.ts), not only the tab's top page.
   */
  readonly inputAt?: 'focus' | 'pointer';
  /**
   * Whether a call of this state-changing tool only reads (browser_tabs `list`): the permission
   * gate lets it through as it lets a read-only tool, with no question and no site check.
   */
  readonly readsOnlyWhen?: (args: z.infer<S>) => boolean;
}

/** The MCP server's own steps (mcp-server/src/server/steps/serverSteps.ts), named by what they do. */
export const SERVER_STEP_KINDS = [
  'checkUploadFiles',
  'saveScreenshot',
  'pageToMarkdown',
  'saveStorageState',
  'loadStorageState',
  'saveSnapshot',
  'saveResultText',
  'saveResultBytes',
] as const;
export type ServerStepKind = (typeof SERVER_STEP_KINDS)[number];

export function defineTool<N extends string, S extends z.ZodObject>(
  contract: ToolContract<N, S>,
): ToolContract<N, S> {
  // `$schema` would name the JSON Schema dialect in every listed tool: ~50 characters each, on
  // every turn, telling the agent nothing (MCP defines inputSchema as JSON Schema, and ours use
  // nothing that differs between draft-07 and 2020-12). zod merges metadata after it sets the
  // dialect, so an undefined `$schema` leaves it out; a unit test checks that it stays out.
  // `meta` clones the schema: done when a side first reads it, not for every tool while the
  // extension's worker loads (#26 item 3: the worker reads one contract for its first call).
  const { input, output, ...rest } = contract;
  let listedInput: S | undefined;
  let listedOutput: z.ZodObject | undefined;
  return {
    ...rest,
    get input(): S {
      return (listedInput ??= input.meta({ $schema: undefined }));
    },
    ...(output
      ? {
          get output(): z.ZodObject {
            return (listedOutput ??= output.meta({ $schema: undefined }));
          },
        }
      : {}),
  };
}
