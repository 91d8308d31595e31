/**
 * An MCP client on a Node MCP server child over stdio, the way an agent's host starts one: the
 * e2e harness's servers and the bench's clients are both started here. A server that does not
 * come up fails with what it wrote to stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';

export interface McpChildOptions {
  /** The client's name (the bridge names the session after it). */
  name: string;
  /** The client's version, e.g. `0.0.0-e2e`. */
  version: string;
  /** The server script, run with this Node, and its arguments. */
  script: string;
  args: readonly string[];
  /** Another program to start instead of `node script` (an installed package's command). */
  command?: { file: string; args: readonly string[] };
  env: Record<string, string>;
  /** Client capabilities, e.g. roots. */
  clientOptions?: ClientOptions;
  /** Request handlers to set before initialize (e.g. roots/list). */
  prepare?: (client: Client) => void;
  /** Keep only the last this many characters of stderr; all of it when left out. */
  stderrTailChars?: number;
}

export interface McpChild {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  /** What the server wrote to stderr so far (its tail, with stderrTailChars). */
  readonly stderr: () => string;
}

/** Spawns the server and completes MCP initialize; rejects with the server's stderr. */
export async function startMcpChild(options: McpChildOptions): Promise<McpChild> {
  const { name, stderrTailChars } = options;
  const transport = new StdioClientTransport({
    command: options.command?.file ?? process.execPath,
    args: [...(options.command?.args ?? [options.script]), ...options.args],
    env: options.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (stderrTailChars !== undefined) stderr = stderr.slice(-stderrTailChars);
  });
  const client = new Client({ name, version: options.version }, options.clientOptions);
  options.prepare?.(client);
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close();
    throw new Error(
      `MCP server "${name}" did not start: ${String(err)}\n--- server stderr ---\n${stderr}`,
      { cause: err },
    );
  }
  const pid = transport.pid;
  if (pid === null) throw new Error(`MCP server "${name}" has no pid after connecting.`);
  return { client, transport, pid, stderr: () => stderr };
}
