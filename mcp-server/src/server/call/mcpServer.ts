import { mkdir } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  contractsFor,
  DEFAULT_TOOL_TIMEOUT_MS,
  projectPathSchema,
  findContract,
  type ToolContract,
  type ToolGroup,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import { installArgumentMessages, strictInput } from './argumentErrors.js';
import {
  checkClientPatience,
  describeCall,
  progressLimitMs,
  reportProgress,
} from './callProgress.js';
import {
  NO_SECRETS,
  redactResult,
  redactText,
  withSecretValues,
  type Secrets,
} from '../settings/secrets.js';
import { serverStepFor, type StepSettings } from '../steps/serverSteps.js';
import { ConsoleLog } from '../outputFiles/consoleLog.js';
import { SessionLog, type TypedArgsSource } from '../outputFiles/sessionLog.js';
import { aliasesFor, type AliasContext, type ToolNameSet } from './toolAliases.js';
import { errorToCallToolResult, toCallToolResult } from '../response/toolResult.js';
import { ToolResponse, type ToolCaller } from '../response/toolResponse.js';

export const SERVER_NAME = 'browser-agent';
export const SERVER_VERSION = '0.1.0';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpServerOptions {
  /** Opt-in tool groups to list besides core (`--caps`). */
  caps?: readonly ToolGroup[];
  /** Launch mode with no project yet: the tools that open the browser take `projectPath`. */
  projectPath?: boolean;
  /** Resolved settings (config.ts); only the parts the tools need. */
  settings?: StepSettings & {
    toolNames?: ToolNameSet;
    actionTimeoutMs?: number;
    navigationTimeoutMs?: number;
    /** `--secrets`: typed by name, shown by name (secrets.ts). */
    secrets?: Secrets;

    /** `--image-responses`: "omit" leaves images out of every result. */
    imageResponses?: 'allow' | 'omit';
    /** `--save-session`: every call and its result to a session log in the output directory. */
    saveSession?: boolean;
  };
}

/** What an action's settling (load, requests, a quiet DOM) may add to its own timeout. */
const SETTLE_ALLOWANCE_MS = 15_000;

/**
 * The bridge's deadline for a call: the contract's, raised when the configured navigation or
 * action timeout is longer, so the extension's own, clearer error arrives first.
 */
function requestTimeoutMs(
  contract: ToolContract | undefined,
  args: Record<string, unknown>,
  settings: NonNullable<McpServerOptions['settings']>,
): number {
  const base = contract?.timeoutMs?.(args) ?? DEFAULT_TOOL_TIMEOUT_MS;
  const own =
    contract?.timeoutKind === 'navigation'
      ? settings.navigationTimeoutMs
      : settings.actionTimeoutMs;
  return own === undefined ? base : Math.max(base, own + SETTLE_ALLOWANCE_MS);
}

/** Registers every shared contract in a loop: adding a tool never touches the server. */
export function createMcpServer(caller: ToolCaller, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'Drive a real Chromium: browser_navigate, then browser_snapshot; an element\'s [eN] there is the ref the element tools take ("eN").',
    },
  );
  const settings = options.settings ?? {};
  const secrets = settings.secrets ?? NO_SECRETS;
  const consoleLog = new ConsoleLog(settings.outputDir, settings.consoleLevel);
  const sessionLog =
    settings.saveSession === true ? new SessionLog(settings.outputDir, secrets) : undefined;
  // Launch mode saves downloads there (sessionSettingsOf); the browser needs it to exist.
  if (settings.outputDir !== undefined)
    mkdir(settings.outputDir, { recursive: true, mode: 0o700 }).catch(() => undefined);
  installArgumentMessages();

  /**
   * One tool call: the client's cancel (extra.signal) reaches every hop down to the handler, and
   * a client that asked for progress hears about calls that take longer than a second.
   */
  const invoke = async (
    name: ToolName,
    args: Record<string, unknown>,
    extra: Extra,
  ): Promise<ToolResult> => {
    const token = extra._meta?.progressToken;
    checkClientPatience(name, args, token !== undefined);
    const contract = findContract(name);
    const step = serverStepFor(contract);
    await step?.before?.(args, settings);
    const response = new ToolResponse();
    const deadlineMs = requestTimeoutMs(contract, args, settings);
    const stop = reportProgress(
      { token, send: (n) => extra.sendNotification(n) },
      describeCall(name, args),
      progressLimitMs(name, args, deadlineMs),
    );
    try {
      // The browser gets a secret's value where the agent wrote its name.
      const sent = withSecretValues(contract, args, secrets);
      response.setResult(
        await caller.call(name, sent, deadlineMs, response, { signal: extra.signal }),
      );
      // Before any step saves or shows a byte of it: files get what the agent would (#25.4).
      if (secrets.size > 0) response.rewriteAll((text) => redactText(text, secrets));
      await step?.after?.(response, args, settings);
      if (settings.imageResponses === 'omit') response.omitImages();
      await consoleLog.report(response);
      // Rendered once, after every layer and step added its part.
      return response.render();
    } finally {
      stop();
    }
  };
  /** Every result and error passes here: no secret value leaves it. */
  const answer = async (
    tool: string,
    args: Record<string, unknown>,
    typedArgs: TypedArgsSource | undefined,
    run: () => Promise<ToolResult>,
  ): Promise<CallToolResult> => {
    const startedAt = new Date();
    let result: CallToolResult;
    try {
      result = redactResult(toCallToolResult(await run()), secrets);
    } catch (err) {
      result = redactResult(errorToCallToolResult(err), secrets);
    }
    sessionLog?.record({
      tool,
      args,
      typedArgs,
      result,
      startedAt,
      ms: Date.now() - startedAt.getTime(),
    });
    return result;
  };

  for (const contract of contractsFor(options.caps ?? [])) {
    const c: ToolContract = contract;
    server.registerTool(
      c.name,
      {
        title: c.title,
        description: c.description,
        inputSchema: strictInput(
          options.projectPath && c.takesProjectPath === true
            ? c.input.extend({ projectPath: projectPathSchema })
            : c.input,
        ),
        ...(c.output ? { outputSchema: c.output } : {}),
        annotations: c.annotations,
      },
      (args: Record<string, unknown>, extra: Extra) =>
        answer(c.name, args, c, () => invoke(contract.name, args, extra)),
    );
  }

  const memory = { consoleCleared: false };
  const aliasContext = (extra: Extra): AliasContext => ({
    invoke: (name, args) => invoke(name, args, extra),
    outputDir: settings.outputDir,
    memory,
  });
  for (const alias of aliasesFor(settings.toolNames ?? 'default')) {
    server.registerTool(
      alias.name,
      {
        title: alias.title,
        description: alias.description,
        inputSchema: alias.input,
        annotations: alias.annotations,
      },
      (args: Record<string, unknown>, extra: Extra) =>
        answer(alias.name, args, alias, () => alias.run(args, aliasContext(extra))),
    );
  }
  return server;
}
