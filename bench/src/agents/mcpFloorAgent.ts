import path from 'node:path';
import type { BenchClient, CallOutcome } from '../mcp/benchClient.js';
import { MCP_FLOOR_TOOLS as T } from '../mcpFloor/toolNames.js';
import type { Sandbox } from '../sandbox.js';
import type { Agent, StepOutcome, Target } from './agent.js';

/** The server's built entry; the bench runs from dist/, where it sits beside this folder. */
const MCP_FLOOR_SCRIPT = path.join(import.meta.dirname, '..', 'mcpFloor', 'server.js');

/**
 * The floor over MCP: the floor's steps, each one an MCP tool call to a minimal server over
 * stdio, timed on the client like the bridge's calls. Elements go by role and name, as on the
 * floor (there are no refs to read first).
 */
export class McpFloorAgent implements Agent {
  readonly kind = 'mcp-floor';
  readonly #client: BenchClient;

  private constructor(client: BenchClient) {
    this.#client = client;
  }

  /** Spawns the server (it launches its own Chromium) as a client the sandbox tears down. */
  static async spawn(sandbox: Sandbox): Promise<McpFloorAgent> {
    const client = await sandbox.spawnClient('bench-mcp-floor', { script: MCP_FLOOR_SCRIPT });
    return new McpFloorAgent(client);
  }

  close(): Promise<void> {
    return this.#client.close();
  }

  goto(url: string): Promise<StepOutcome> {
    return this.#call(T.goto, { url });
  }

  back(): Promise<StepOutcome> {
    return this.#call(T.back, {});
  }

  /** Like the floor, never capped: `full` changes nothing. */
  read(): Promise<StepOutcome> {
    return this.#call(T.read, {});
  }

  find(text: string): Promise<StepOutcome> {
    return this.#call(T.find, { text });
  }

  click(target: Target): Promise<StepOutcome> {
    return this.#call(T.click, { ...target });
  }

  type(target: Target, text: string, options: { submit?: boolean } = {}): Promise<StepOutcome> {
    return this.#call(T.type, { ...target, text, ...options });
  }

  select(target: Target, label: string): Promise<StepOutcome> {
    return this.#call(T.select, { ...target, label });
  }

  evaluate(fn: string): Promise<StepOutcome> {
    return this.#call(T.evaluate, { function: fn });
  }

  waitForText(text: string): Promise<StepOutcome> {
    return this.#call(T.waitForText, { text });
  }

  screenshot(): Promise<StepOutcome> {
    return this.#call(T.screenshot, {});
  }

  openTab(url: string): Promise<StepOutcome> {
    return this.#call(T.openTab, { url });
  }

  listTabs(): Promise<StepOutcome> {
    return this.#call(T.listTabs, {});
  }

  closeTab(): Promise<StepOutcome> {
    return this.#call(T.closeTab, {});
  }

  consoleMessages(): Promise<StepOutcome> {
    return this.#call(T.consoleMessages, {});
  }

  async #call(name: string, args: Record<string, unknown>): Promise<StepOutcome> {
    const { ms, text, imageChars }: CallOutcome = await this.#client.callUntypedOk(name, args);
    return { ms, text, imageChars };
  }
}
