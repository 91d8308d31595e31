import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loggedCallSchema, type LoggedCall } from '@browser-agent/protocol';

/** How many calls a resumed server gets back. */
export const RECENT_CALLS = 10;
const MAX_ARGS_CHARS = 300;

interface CallLine {
  phase: 'call';
  t: string;
  id: string;
  sessionId: string;
  tool: string;
  args: unknown;
}
interface ResultLine {
  phase: 'result';
  id: string;
  code: string;
  ms: number;
}

function parse(line: string): CallLine | ResultLine | undefined {
  try {
    const value = JSON.parse(line) as { phase?: unknown };
    return value.phase === 'call' || value.phase === 'result'
      ? (value as CallLine | ResultLine)
      : undefined;
  } catch {
    // A daemon killed mid-append leaves half a line; the lines around it still count.
    return undefined;
  }
}

function calls(text: string, sessionId: string): LoggedCall[] {
  const byId = new Map<string, LoggedCall>();
  for (const line of text.split('\n')) {
    const entry = parse(line);
    if (entry?.phase === 'call' && entry.sessionId === sessionId) {
      const args = JSON.stringify(entry.args ?? {});
      byId.set(entry.id, {
        t: entry.t,
        tool: entry.tool,
        args: args.length > MAX_ARGS_CHARS ? `${args.slice(0, MAX_ARGS_CHARS)}…` : args,
      });
    } else if (entry?.phase === 'result') {
      const call = byId.get(entry.id);
      if (call) Object.assign(call, { code: entry.code, ms: entry.ms });
    }
  }
  // A line the register_ok schema would refuse must not cost the resumed server its handshake.
  return [...byId.values()].filter((c) => loggedCallSchema.safeParse(c).success);
}

/**
 * The session's last calls from the write-ahead log (already redacted when written), oldest
 * first. Reads the current file, and the previous one when the current holds too few.
 */
export function recentCalls(walDir: string, sessionId: string, limit = RECENT_CALLS): LoggedCall[] {
  let found: LoggedCall[] = [];
  for (const name of ['calls.jsonl', 'calls.1.jsonl']) {
    const file = join(walDir, name);
    if (!existsSync(file)) continue;
    found = [...calls(readFileSync(file, 'utf8'), sessionId), ...found];
    if (found.length >= limit) break;
  }
  return found.slice(-limit);
}
