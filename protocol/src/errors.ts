import { z } from './zod.js';

/** One vocabulary of error codes for every hop; the hint tells the model what to do next. */
export const ErrorCode = {
  NOT_CONNECTED: 'NOT_CONNECTED',
  TIMEOUT: 'TIMEOUT',
  INVALID_ARGS: 'INVALID_ARGS',
  INVALID_FRAME: 'INVALID_FRAME',
  VERSION_MISMATCH: 'VERSION_MISMATCH',
  UNKNOWN_ACTION: 'UNKNOWN_ACTION',
  STALE_REF: 'STALE_REF',
  ELEMENT_NOT_FOUND: 'ELEMENT_NOT_FOUND',
  AMBIGUOUS_TARGET: 'AMBIGUOUS_TARGET',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  NOT_VISIBLE: 'NOT_VISIBLE',
  NOT_EDITABLE: 'NOT_EDITABLE',
  NO_TAB: 'NO_TAB',
  TAB_CLOSED: 'TAB_CLOSED',
  DIALOG_OPEN: 'DIALOG_OPEN',
  DEBUGGER_DETACHED: 'DEBUGGER_DETACHED',
  NAVIGATION_FAILED: 'NAVIGATION_FAILED',
  NAVIGATION_TIMEOUT: 'NAVIGATION_TIMEOUT',
  RESTRICTED_URL: 'RESTRICTED_URL',
  BLOCKED_URL: 'BLOCKED_URL',
  EVALUATION_FAILED: 'EVALUATION_FAILED',
  NOT_OWNER: 'NOT_OWNER',
  SESSION_ENDED: 'SESSION_ENDED',
  NOT_REGISTERED: 'NOT_REGISTERED',
  NOT_PAIRED: 'NOT_PAIRED',
  PAUSED: 'PAUSED',
  REVOKED: 'REVOKED',
  /** The user refused (or did not answer) a question the extension asked before acting. */
  USER_DENIED: 'USER_DENIED',
  /** A question the extension asked before acting got no answer within the call's limit. */
  APPROVAL_TIMEOUT: 'APPROVAL_TIMEOUT',
  LAUNCH_FAILED: 'LAUNCH_FAILED',
  /** The daemon's browser runs with another profile or binary than a new server asked for. */
  BROWSER_IN_USE: 'BROWSER_IN_USE',
  /** The caller gave up on the call (an MCP cancel, a disconnect, a deadline); nothing waits for it. */
  CANCELLED: 'CANCELLED',
  /** An assertion tool (browser_verify_*) found the page other than expected. */
  VERIFY_FAILED: 'VERIFY_FAILED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The hint of a call that ran out of time, in the daemon or in the extension: both stop the call
 * in the browser, so the step it names works at once (e2e/specs/faults.spec.ts takes it).
 */
export const CALL_TIMEOUT_HINT =
  "The call was stopped in the browser and this session's next call runs at once: call browser_snapshot to see the page before you retry (a page that stopped answering is replaced by a fresh tab, and the answer says so).";

const errorCodeValues = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

export const wireErrorSchema = z.object({
  code: z.enum(errorCodeValues),
  message: z.string(),
  hint: z.string().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

/** The error every handler throws; one place per hop turns it into a wire error or an MCP result. */
export class BridgeError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, hint?: string) {
    super(message);
    this.name = 'BridgeError';
    this.code = code;
    this.hint = hint;
  }

  static from(wire: WireError): BridgeError {
    return new BridgeError(wire.code, wire.message, wire.hint);
  }

  toWire(): WireError {
    return this.hint === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, hint: this.hint };
  }
}

/** Anything thrown becomes a wire error; unknown throwables are INTERNAL, never lost. */
export function toWireError(err: unknown): WireError {
  if (err instanceof BridgeError) return err.toWire();
  const message = err instanceof Error ? err.message : String(err);
  return { code: ErrorCode.INTERNAL, message };
}
