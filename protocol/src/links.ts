/**
 * One frame union per link and direction, each with its own parser. A receiver parses with its
 * link's parser and switches only over the frames that can reach it; a frame sent the wrong way
 * is refused at parse time (INVALID_FRAME, naming the link and what it carries), like any other
 * malformed frame, and never reaches a receiver's switch.
 *
 *   server → daemon      hello (role server), register, request, cancel, bye, approval_answer,
 *                        ping
 *   daemon → server      welcome, register_ok, response, event, pong, error
 *   extension → daemon   hello (role extension), auth, pair_start, pair_confirm, unpair, response,
 *                        event, ping, error
 *   daemon → extension   challenge, pairing_required, pair_offer, paired, welcome, request,
 *                        cancel, session_start, session_end, approval_answer, pong, error
 *
 * Inside the extension the relay (side panel or worker-held) passes the daemon's work on to the
 * service worker and carries its answers back; that hop has its own pair of unions:
 *   relay → worker       request, cancel, session_start, session_end, approval_answer, ping (the
 *                        panel's keepalive)
 *   worker → relay       response, event, pong
 */
import { z } from './zod.js';
import { MAX_FRAME_BYTES } from './constants.js';
import { ErrorCode, type WireError } from './errors.js';
import { fastRequestFrame } from './fastFrames.js';
import {
  authFrameSchema,
  approvalAnswerFrameSchema,
  byeFrameSchema,
  cancelFrameSchema,
  challengeFrameSchema,
  errorFrameSchema,
  eventFrameSchema,
  extensionHelloFrameSchema,
  frameSchema,
  pairConfirmFrameSchema,
  pairOfferFrameSchema,
  pairStartFrameSchema,
  pairedFrameSchema,
  pairingRequiredFrameSchema,
  pingFrameSchema,
  pongFrameSchema,
  registerFrameSchema,
  registerOkFrameSchema,
  requestFrameSchema,
  responseFrameSchema,
  serverHelloFrameSchema,
  sessionEndFrameSchema,
  sessionStartFrameSchema,
  unpairFrameSchema,
  welcomeFrameSchema,
  type Frame,
} from './frames.js';
import { serializeResponse } from './responseText.js';

export const serverToDaemonFrameSchema = z.discriminatedUnion('type', [
  serverHelloFrameSchema,
  registerFrameSchema,
  requestFrameSchema,
  cancelFrameSchema,
  byeFrameSchema,
  approvalAnswerFrameSchema,
  pingFrameSchema,
]);
export type ServerToDaemonFrame = z.infer<typeof serverToDaemonFrameSchema>;

export const daemonToServerFrameSchema = z.discriminatedUnion('type', [
  welcomeFrameSchema,
  registerOkFrameSchema,
  responseFrameSchema,
  eventFrameSchema,
  pongFrameSchema,
  errorFrameSchema,
]);
export type DaemonToServerFrame = z.infer<typeof daemonToServerFrameSchema>;

export const extensionToDaemonFrameSchema = z.discriminatedUnion('type', [
  extensionHelloFrameSchema,
  authFrameSchema,
  pairStartFrameSchema,
  pairConfirmFrameSchema,
  unpairFrameSchema,
  responseFrameSchema,
  eventFrameSchema,
  pingFrameSchema,
  errorFrameSchema,
]);
export type ExtensionToDaemonFrame = z.infer<typeof extensionToDaemonFrameSchema>;

export const daemonToExtensionFrameSchema = z.discriminatedUnion('type', [
  challengeFrameSchema,
  pairingRequiredFrameSchema,
  pairOfferFrameSchema,
  pairedFrameSchema,
  welcomeFrameSchema,
  requestFrameSchema,
  cancelFrameSchema,
  sessionStartFrameSchema,
  sessionEndFrameSchema,
  approvalAnswerFrameSchema,
  pongFrameSchema,
  errorFrameSchema,
]);
export type DaemonToExtensionFrame = z.infer<typeof daemonToExtensionFrameSchema>;

export const relayToWorkerFrameSchema = z.discriminatedUnion('type', [
  requestFrameSchema,
  cancelFrameSchema,
  sessionStartFrameSchema,
  sessionEndFrameSchema,
  approvalAnswerFrameSchema,
  pingFrameSchema,
]);
export type RelayToWorkerFrame = z.infer<typeof relayToWorkerFrameSchema>;

export const workerToRelayFrameSchema = z.discriminatedUnion('type', [
  responseFrameSchema,
  eventFrameSchema,
  pongFrameSchema,
]);
export type WorkerToRelayFrame = z.infer<typeof workerToRelayFrameSchema>;

export type ParseResult<F = Frame> = { ok: true; frame: F } | { ok: false; error: WireError };
/** Parses one frame from text: size-capped, JSON-checked and schema-checked. Never throws. */
export type FrameParser<F> = (raw: string, maxBytes?: number) => ParseResult<F>;

/** What linkParser needs of a discriminated union of frame schemas. */
interface FrameUnion<F> {
  readonly options: readonly { readonly shape: { readonly type: z.ZodLiteral<string> } }[];
  safeParse(data: unknown): z.ZodSafeParseResult<F>;
}

const ALL_TYPES: ReadonlySet<string> = typesOf(frameSchema);

function typesOf(union: FrameUnion<unknown>): ReadonlySet<string> {
  return new Set(union.options.map((option) => option.shape.type.value));
}

/**
 * A parser for one link: `direction` reads after "is not sent", e.g. "from an MCP server to the
 * daemon". Links that carry requests take the hand-checked path for them first (fastFrames.ts).
 */
function linkParser<F>(
  union: FrameUnion<F>,
  direction: string | undefined,
  fast?: (json: unknown) => F | undefined,
): FrameParser<F> {
  const types = typesOf(union);
  const carried = [...types].join(', ');
  return (raw, maxBytes = MAX_FRAME_BYTES) => {
    // String length in UTF-16 units is a lower bound of the byte size; good enough as a cheap cap.
    if (raw.length > maxBytes) {
      return invalid(`Frame of ${raw.length} characters exceeds the ${maxBytes}-byte limit.`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return invalid('Frame is not valid JSON.');
    }
    // Every call's request crosses three boundaries; the same rules, checked by hand.
    const quick = fast?.(json);
    if (quick !== undefined) return { ok: true, frame: quick };
    const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : '';
    if (
      direction !== undefined &&
      typeof type === 'string' &&
      ALL_TYPES.has(type) &&
      !types.has(type)
    ) {
      return invalid(
        `A ${type} frame is not sent ${direction}; this link carries ${carried}.`,
        'Both ends must run the same Browser Agent release: rebuild with pnpm build and reload the extension.',
      );
    }
    const parsed = union.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      return invalid(`Frame does not match the protocol${where}: ${issue?.message ?? 'invalid'}.`);
    }
    return { ok: true, frame: parsed.data };
  };
}

function invalid(message: string, hint?: string): { ok: false; error: WireError } {
  return {
    ok: false,
    error: { code: ErrorCode.INVALID_FRAME, message, ...(hint !== undefined ? { hint } : {}) },
  };
}

/** The daemon reads an MCP server's socket with this. */
export const parseServerToDaemon: FrameParser<ServerToDaemonFrame> = linkParser(
  serverToDaemonFrameSchema,
  'from an MCP server to the daemon',
  fastRequestFrame,
);
/** An MCP server reads the daemon's socket with this. */
export const parseDaemonToServer: FrameParser<DaemonToServerFrame> = linkParser(
  daemonToServerFrameSchema,
  'from the daemon to an MCP server',
);
/** The daemon reads the extension's WebSocket with this. */
export const parseExtensionToDaemon: FrameParser<ExtensionToDaemonFrame> = linkParser(
  extensionToDaemonFrameSchema,
  'from the extension to the daemon',
);
/** The extension's relay reads the daemon's WebSocket with this. */
export const parseDaemonToExtension: FrameParser<DaemonToExtensionFrame> = linkParser(
  daemonToExtensionFrameSchema,
  'from the daemon to the extension',
  fastRequestFrame,
);
/** The service worker reads what the side panel's relay passes on with this. */
export const parseRelayToWorker: FrameParser<RelayToWorkerFrame> = linkParser(
  relayToWorkerFrameSchema,
  "from the extension's relay to its service worker",
  fastRequestFrame,
);
/** The side panel's relay reads the service worker's answers with this. */
export const parseWorkerToRelay: FrameParser<WorkerToRelayFrame> = linkParser(
  workerToRelayFrameSchema,
  "from the extension's service worker to its relay",
);
/** Any frame of the protocol, whichever way it goes: for tools and tests that watch a link. */
export const parseFrame: FrameParser<Frame> = linkParser(frameSchema, undefined, fastRequestFrame);

export function serializeFrame(frame: Frame): string {
  return frame.type === 'response' ? serializeResponse(frame) : JSON.stringify(frame);
}
