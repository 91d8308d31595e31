import { constants, openSync, writeSync } from 'node:fs';
import { hopTime, type ResponseEnvelope, type ToolName } from '@browser-agent/protocol';

/**
 * The trace file is named by the user (an environment variable, never by the agent), so it may
 * exist already (pnpm bench appends runs); it is still opened once, never through a link at its
 * last component, and every line goes through that one descriptor, not by name.
 */
const TRACE_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes one JSON line per traced call (BROWSER_AGENT_TRACE_FILE): the hop timestamps the frame
 * collected on its way, the total, and the extension's handler and CDP time. Used by pnpm bench.
 */
export class TraceWriter {
  readonly #path: string;
  #fd: number | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  record(tool: ToolName, startedAt: number, frame: ResponseEnvelope): void {
    const line = {
      tool,
      totalMs: hopTime() - startedAt,
      hops: frame.hops ?? [],
      handlerMs: frame.timing?.handlerMs,
      cdpMs: frame.timing?.cdpMs,
    };
    // After the answer is on its way: a synchronous write here sat on every traced call's path.
    setImmediate(() => {
      try {
        this.#fd ??= openSync(this.#path, TRACE_FLAGS, 0o600);
        writeSync(this.#fd, `${JSON.stringify(line)}\n`);
      } catch {
        // Tracing must never fail a call.
      }
    });
  }
}
