import { appendFileSync } from 'node:fs';
import { hopTime, type ResponseEnvelope, type ToolName } from '@browser-agent/protocol';

/**
 * Writes one JSON line per traced call (BROWSER_AGENT_TRACE_FILE): the hop timestamps the frame
 * collected on its way, the total, and the extension's handler and CDP time. Used by pnpm bench.
 */
export class TraceWriter {
  readonly #path: string;

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
        appendFileSync(this.#path, `${JSON.stringify(line)}\n`);
      } catch {
        // Tracing must never fail a call.
      }
    });
  }
}
