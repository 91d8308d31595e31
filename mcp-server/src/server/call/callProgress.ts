/**
 * `notifications/progress` for calls that take a while. A client that sends a `progressToken`
 * with its call gets one notification per second once the call has run for a second: what the
 * call is waiting for, seconds elapsed and its limit. Clients that reset their request timeout on
 * progress (the SDK's `resetTimeoutOnProgress`) then wait as long as the call needs.
 *
 * Without a token no progress can flow, and most clients give up after 60 s: waits longer than
 * CLIENT_PATIENCE_S are refused up front with a hint, instead of failing at the client's timeout
 * and leaving the browser waiting for nobody.
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { BridgeError, ErrorCode, findContract, type ToolName } from '@browser-agent/protocol';

export const PROGRESS_INTERVAL_MS = 1_000;
/** Below the 60 s default request timeout of the SDK clients (and Claude Desktop's). */
export const CLIENT_PATIENCE_S = 55;

/** A wait's default seconds (its contract's), undefined for a call that is not a wait. */
function waitDefault(name: ToolName): number | undefined {
  return findContract(name)?.waitDefaultSeconds;
}

export type ProgressToken = string | number;

export interface ProgressSink {
  token: ProgressToken | undefined;
  send(notification: ServerNotification): Promise<void>;
}

/** What a call waits for, in the words of its arguments. */
export function describeCall(name: ToolName, args: Record<string, unknown>): string {
  const quoted = (key: string): string | undefined =>
    typeof args[key] === 'string' ? `${key} ${JSON.stringify(args[key])}` : undefined;
  if (waitDefault(name) !== undefined) {
    if (typeof args['time'] === 'number') return `waiting ${args['time']} s`;
    if (args['networkIdle'] === true) return 'waiting for the network to go idle';
    const what = quoted('text') ?? quoted('textGone') ?? quoted('selector') ?? 'the condition';
    return `waiting for ${what}`;
  }
  if (typeof args['url'] === 'string') return `${name} to ${args['url']}`;
  return `${name} running`;
}

/** The seconds a wait asks for, when the call is a wait. */
function waitSeconds(name: ToolName, args: Record<string, unknown>): number | undefined {
  if (waitDefault(name) === undefined) return undefined;
  const time = args['time'];
  const timeout = args['timeout'];
  if (typeof time === 'number') return time;
  return typeof timeout === 'number' ? timeout : undefined;
}

/** The limit progress reports: a wait's own seconds, else the bridge's deadline for the call. */
export function progressLimitMs(
  name: ToolName,
  args: Record<string, unknown>,
  deadlineMs: number,
): number {
  const seconds = waitSeconds(name, args);
  if (seconds !== undefined) return seconds * 1000;
  const fallback = waitDefault(name);
  return fallback === undefined ? deadlineMs : fallback * 1000;
}

/** Refuses a wait the client will not sit through when no progress can keep it waiting. */
export function checkClientPatience(
  name: ToolName,
  args: Record<string, unknown>,
  progress: boolean,
): void {
  const seconds = waitSeconds(name, args);
  if (progress || seconds === undefined || seconds <= CLIENT_PATIENCE_S) return;
  const key = typeof args['time'] === 'number' ? 'time' : 'timeout';
  throw new BridgeError(
    ErrorCode.INVALID_ARGS,
    `${key} ${seconds} s is longer than an MCP client waits for an answer (60 s) when the call sends no progress.`,
    `Wait at most ${CLIENT_PATIENCE_S} s per call (repeat the call to wait longer), or send the call with _meta.progressToken so progress notifications keep the client waiting.`,
  );
}

/**
 * Starts reporting a call's progress; returns the function that stops it. limitMs is the call's
 * own deadline in the bridge.
 */
export function reportProgress(sink: ProgressSink, what: string, limitMs: number): () => void {
  const { token } = sink;
  if (token === undefined) return () => undefined;
  const startedAt = Date.now();
  const limitS = Math.round(limitMs / 1000);
  const timer = setInterval(() => {
    const elapsedS = Math.round((Date.now() - startedAt) / 1000);
    sink
      .send({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: elapsedS,
          total: limitS,
          message: `${what}: ${elapsedS} s elapsed of at most ${limitS} s`,
        },
      })
      .catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}
