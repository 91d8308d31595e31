import { ErrorCode } from '@browser-agent/protocol';
import type { CallOutcome } from '../mcp/benchClient.js';

/** How a call ended: a success, a coded error `CODE: message`, anything else, or no answer. */
export type CallKind = 'ok' | 'coded-error' | 'uncoded-error' | 'no-response';

export interface CallRecord {
  session: number;
  tool: string;
  ms: number;
  kind: CallKind;
  /** The error text, for coded and uncoded errors and failed calls. */
  detail?: string;
}

const CODES = new Set<string>(Object.values(ErrorCode));

export function classify(outcome: CallOutcome): CallKind {
  if (!outcome.isError) return 'ok';
  const code = /^([A-Z_]+): /.exec(outcome.text)?.[1];
  return code !== undefined && CODES.has(code) ? 'coded-error' : 'uncoded-error';
}
