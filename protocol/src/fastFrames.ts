/**
 * Hand-written checks for the two frames every tool call carries across each hop: the request,
 * and a response's header (responseText.ts). They accept exactly what the zod schemas accept and
 * return the same output (unknown keys dropped), which fastFrames.test.ts checks against zod on
 * generated input. Anything they refuse is parsed by zod again, for its error message.
 *
 * Why not zod alone: the daemon runs with `--lite-mode` (no optimizing compiler, for memory), and
 * there zod spent ~0.25 ms per call on these two frames, a tenth of the bridge's own time.
 */
import { MAX_ID_CHARS } from './constants.js';
import { MAX_HOP_NAME_CHARS, MAX_HOPS, type Hops } from './hops.js';
import type { RequestFrame, ResponseHeader } from './frames.js';

const HEADER_KEYS: ReadonlySet<string> = new Set([
  'type',
  'id',
  'sessionId',
  'hops',
  'timing',
  'payloadChars',
]);

type Json = Record<string, unknown>;

/** The request frame as requestFrameSchema would output it, or undefined (then ask zod why). */
export function fastRequestFrame(json: unknown): RequestFrame | undefined {
  if (!isObject(json) || json['type'] !== 'request') return undefined;
  const { id, sessionId, action, timeoutMs } = json;
  if (!idString(id, 1) || !idString(sessionId, 1) || !idString(action, 1)) return undefined;
  // zod 4 requires a key whose schema is z.unknown() to be present, even though any value passes.
  if (!('params' in json)) return undefined;
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && (timeoutMs as number) > 0))
    return undefined;
  const hops = json['hops'] === undefined ? undefined : fastHops(json['hops']);
  if (json['hops'] !== undefined && hops === undefined) return undefined;
  const frame: RequestFrame = { type: 'request', id, sessionId, action, params: json['params'] };
  if (timeoutMs !== undefined) frame.timeoutMs = timeoutMs as number;
  if (hops !== undefined) frame.hops = hops;
  return frame;
}

/** A response header as responseHeaderSchema (a strict object) would output it, or undefined. */
export function fastResponseHeader(json: unknown): ResponseHeader | undefined {
  if (!isObject(json) || json['type'] !== 'response') return undefined;
  for (const key of Object.keys(json)) if (!HEADER_KEYS.has(key)) return undefined;
  const { id, sessionId, payloadChars, timing } = json;
  if (!idString(id, 1) || !idString(sessionId, 0)) return undefined;
  if (!Number.isSafeInteger(payloadChars) || (payloadChars as number) < 0) return undefined;
  const hops = json['hops'] === undefined ? undefined : fastHops(json['hops']);
  if (json['hops'] !== undefined && hops === undefined) return undefined;
  const header: ResponseHeader = {
    type: 'response',
    id,
    sessionId,
    payloadChars: payloadChars as number,
  };
  if (hops !== undefined) header.hops = hops;
  if (timing !== undefined) {
    if (!isObject(timing) || !finite(timing['handlerMs']) || !finite(timing['cdpMs']))
      return undefined;
    header.timing = { handlerMs: timing['handlerMs'], cdpMs: timing['cdpMs'] };
  }
  return header;
}

function fastHops(value: unknown): Hops | undefined {
  if (!Array.isArray(value) || value.length > MAX_HOPS) return undefined;
  const hops: Hops = [];
  for (const entry of value as unknown[]) {
    if (!isObject(entry)) return undefined;
    const { hop, at } = entry;
    if (typeof hop !== 'string' || hop.length > MAX_HOP_NAME_CHARS || !finite(at)) return undefined;
    hops.push({ hop, at });
  }
  return hops;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idString(value: unknown, min: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= MAX_ID_CHARS;
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
