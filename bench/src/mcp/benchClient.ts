/**
 * One MCP client driving one `browser-agent-mcp` child over stdio, the way an agent's host does.
 * Every call is timed from the client's side (stdio included), and every request and response
 * is counted on the wire by a ResponseLedger.
 */
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolArgs, ToolName } from '@browser-agent/protocol';
import { startMcpChild } from '@browser-agent/testkit/mcpChild';
import { SERVER_BIN } from '../paths.js';
import { ResponseLedger } from './responseLedger.js';

/** Longer than any tool's own timeout, so the bridge's coded TIMEOUT answer arrives first. */
const CALL_TIMEOUT_MS = 150_000;
const STDERR_TAIL_CHARS = 8_000;

/**
 * The flags an MCP host config would give for a machine without a Chrome profile. The bench's
 * sessions share one browser on purpose, so the sandbox adds one --user-data-dir for all of
 * them (two --isolated servers each get a browser of their own).
 */
export const LAUNCH_FLAGS = ['--launch', '--headless'];

export interface CallOutcome {
  ms: number;
  isError: boolean;
  /** Every text part, joined by newlines. */
  text: string;
  /** Base64 characters of image parts. */
  imageChars: number;
}

export class BenchClient {
  readonly name: string;
  readonly pid: number;
  readonly ledger: ResponseLedger;
  readonly #client: Client;
  readonly #stderr: () => string;
  #closed = false;

  private constructor(
    name: string,
    client: Client,
    pid: number,
    ledger: ResponseLedger,
    stderr: () => string,
  ) {
    this.name = name;
    this.#client = client;
    this.pid = pid;
    this.ledger = ledger;
    this.#stderr = stderr;
  }

  /** Spawns the server and completes MCP initialize; rejects with the server's stderr. */
  static spawn(
    name: string,
    env: Record<string, string>,
    flags: readonly string[] = LAUNCH_FLAGS,
  ): Promise<BenchClient> {
    return BenchClient.spawnScript(name, SERVER_BIN, flags, env);
  }

  /** Any Node MCP server script (e.g. the floor over MCP), spawned and connected the same way. */
  static async spawnScript(
    name: string,
    script: string,
    args: readonly string[],
    env: Record<string, string>,
  ): Promise<BenchClient> {
    const { client, transport, pid, stderr } = await startMcpChild({
      name,
      version: '0.0.0-bench',
      script,
      args,
      env,
      stderrTailChars: STDERR_TAIL_CHARS,
    });
    const ledger = new ResponseLedger();
    // Wrapped after initialize, so the ledger sees exactly the bench's own requests.
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      ledger.noteIncoming(message);
      deliver?.(message);
    };
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      ledger.noteOutgoing(message);
      return send(message);
    };
    return new BenchClient(name, client, pid, ledger, stderr);
  }

  get stderrTail(): string {
    return this.#stderr();
  }

  async listTools(): Promise<string[]> {
    const { tools } = await this.#client.listTools();
    return tools.map((t) => t.name);
  }

  /** Calls a tool; a tool error comes back as `isError`, a protocol failure throws. */
  call<N extends ToolName>(name: N, args: ToolArgs<N>): Promise<CallOutcome> {
    return this.callUntyped(name, args);
  }

  /** Like callOk, for a server whose tools are not the bridge's contracts. */
  async callUntypedOk(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
    return okOrThrow(name, args, await this.callUntyped(name, args));
  }

  /** The one timed path every call takes, whichever server answers. */
  async callUntyped(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const raw = await this.#client.callTool({ name, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
    });
    const ms = performance.now() - started;
    const result = CallToolResultSchema.parse(raw);
    const texts: string[] = [];
    let imageChars = 0;
    for (const part of result.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'image') imageChars += part.data.length;
    }
    return { ms, isError: result.isError === true, text: texts.join('\n'), imageChars };
  }

  /** Like call, but a tool error throws with the tool's name and its answer. */
  async callOk<N extends ToolName>(name: N, args: ToolArgs<N>): Promise<CallOutcome> {
    return okOrThrow(name, args, await this.call(name, args));
  }

  /** The SDK ends stdin, then escalates to SIGTERM and SIGKILL: the process is gone after. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#client.close().catch(() => undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }
}

function okOrThrow(name: string, args: unknown, outcome: CallOutcome): CallOutcome {
  if (outcome.isError)
    throw new Error(`${name} ${JSON.stringify(args)} failed: ${outcome.text.slice(0, 500)}`);
  return outcome;
}
