/**
 * The wire layout of a `response` frame, so hops that only route it never parse its payload.
 *
 *   {"type":"response","id":…,"sessionId":…[,"hops":…][,"timing":…],"payloadChars":N,"payload":P}
 *
 * The header comes first and `payload` last; `payloadChars` is P's length in UTF-16 code units.
 * A routing hop cuts the text at the first `,"payload":`, parses and checks the header alone, and
 * passes P on as the text (or bytes) it received. It is still an ordinary JSON frame: a receiver
 * that parses it whole gets the same frame (`payloadChars` is not part of the schema and is
 * dropped). Frames in any other layout, e.g. from an older release, are parsed whole as before.
 *
 * Why the cut is safe: inside a JSON string every `"` is escaped, so `,"payload":` in the text is
 * a key; the text before it, closed with `}`, only parses when that key is the outermost object's.
 */
import { fastResponseHeader } from './fastFrames.js';
import {
  responseHeaderSchema,
  responsePayloadSchema,
  type ResponseFrame,
  type ResponseHeader,
} from './frames.js';

/** Every response in this layout starts so; anything else is not looked at twice. */
export const RESPONSE_PREFIX = '{"type":"response",';
export const PAYLOAD_KEY = ',"payload":';
/** The start of a success payload: only those take the fast path, errors are small. */
export const SUCCESS_PAYLOAD_PREFIX = '{"success":true,"data":';

/** The response's header fields, without the payload's length (the writer adds it). */
export type ResponseEnvelope = Omit<ResponseHeader, 'payloadChars'>;

/** The header's text up to and including the payload key; the payload and `}` follow it. */
export function responseHead(envelope: ResponseEnvelope, payloadChars: number): string {
  const header: ResponseHeader = {
    type: 'response',
    id: envelope.id,
    sessionId: envelope.sessionId,
    ...(envelope.hops ? { hops: envelope.hops } : {}),
    ...(envelope.timing ? { timing: envelope.timing } : {}),
    payloadChars,
  };
  return `${JSON.stringify(header).slice(0, -1)}${PAYLOAD_KEY}`;
}

/** A response frame's text in the layout above; its payload is serialized exactly once. */
export function serializeResponse(frame: ResponseFrame): string {
  return responseText(frame, JSON.stringify(frame.payload));
}

/** Re-addresses a response around a payload text that is passed on untouched. */
export function responseText(envelope: ResponseEnvelope, payloadText: string): string {
  return `${responseHead(envelope, payloadText.length)}${payloadText}}`;
}

/** Parses the text before the payload key (without its closing brace); undefined if it is no header. */
export function parseResponseHeader(head: string): ResponseHeader | undefined {
  let json: unknown;
  try {
    json = JSON.parse(`${head}}`);
  } catch {
    return undefined;
  }
  const fast = fastResponseHeader(json);
  if (fast) return fast;
  const parsed = responseHeaderSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

export interface SplitResponse {
  header: ResponseHeader;
  /** The payload exactly as received, not parsed. */
  payloadText: string;
}

/**
 * Cuts a success response in the layout above into its parsed header and its payload's text.
 * Undefined for anything else (an error answer, another layout, a malformed frame): the caller
 * then parses the frame whole. Never throws.
 */
export function splitResponse(raw: string): SplitResponse | undefined {
  if (!raw.startsWith(RESPONSE_PREFIX) || !raw.endsWith('}')) return undefined;
  const at = raw.indexOf(PAYLOAD_KEY);
  if (at === -1) return undefined;
  const header = parseResponseHeader(raw.slice(0, at));
  if (!header) return undefined;
  const start = at + PAYLOAD_KEY.length;
  if (raw.length - 1 - start !== header.payloadChars) return undefined;
  if (!raw.startsWith(SUCCESS_PAYLOAD_PREFIX, start)) return undefined;
  return { header, payloadText: raw.slice(start, -1) };
}

/** Parses a payload that was passed on as text; undefined when it is not a valid payload. */
export function parseResponsePayload(text: string): ResponseFrame['payload'] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = responsePayloadSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
