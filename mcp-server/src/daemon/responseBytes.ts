/**
 * The daemon's side of the response layout (protocol/src/responseText.ts), on the bytes the
 * WebSocket delivered: a success response is cut into its parsed header and its payload, which
 * goes on to the server as the same bytes. Large snapshots and screenshots are never decoded,
 * parsed or serialized here. Anything else (errors, other layouts) is parsed whole by the caller.
 */
import {
  PAYLOAD_KEY,
  RESPONSE_PREFIX,
  SUCCESS_PAYLOAD_PREFIX,
  parseResponseHeader,
  type ResponseHeader,
} from '@browser-agent/protocol';

const PREFIX = Buffer.from(RESPONSE_PREFIX);
const KEY = Buffer.from(PAYLOAD_KEY);
const SUCCESS = Buffer.from(SUCCESS_PAYLOAD_PREFIX);
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;

export interface ResponseBytes {
  header: ResponseHeader;
  /** The payload's UTF-8 bytes as received (a view, not a copy). */
  payload: Buffer;
}

export function splitResponseBytes(data: Buffer): ResponseBytes | undefined {
  if (data.length < PREFIX.length || data[data.length - 1] !== CLOSE_BRACE) return undefined;
  if (data.compare(PREFIX, 0, PREFIX.length, 0, PREFIX.length) !== 0) return undefined;
  const at = data.indexOf(KEY);
  if (at === -1) return undefined;
  const header = parseResponseHeader(data.toString('utf8', 0, at));
  if (!header) return undefined;
  const payload = data.subarray(at + KEY.length, data.length - 1);
  if (
    payload.length < SUCCESS.length ||
    payload.compare(SUCCESS, 0, SUCCESS.length, 0, SUCCESS.length) !== 0
  )
    return undefined;
  // One frame per line to the server: a raw newline (never in JSON.stringify's output) would end
  // the line early and let the rest pass as a frame of its own. UTF-8 never hides 0x0A in a
  // multi-byte character.
  if (payload.indexOf(NEWLINE) !== -1) return undefined;
  return { header, payload };
}
