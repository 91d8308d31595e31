/**
 * Hop timestamps, carried only when tracing is on (BROWSER_AGENT_TRACE_FILE on the server):
 * each hop appends {hop, at} with `at` = performance.timeOrigin + performance.now().
 */
import { z } from './zod.js';

export const MAX_HOPS = 32;
export const MAX_HOP_NAME_CHARS = 40;

export const hopsSchema = z
  .array(z.object({ hop: z.string().max(MAX_HOP_NAME_CHARS), at: z.number() }))
  .max(MAX_HOPS);
export type Hops = z.infer<typeof hopsSchema>;

/** Time the extension spent in the handler, and in CDP commands within it (tracing only). */
export const timingSchema = z.object({ handlerMs: z.number(), cdpMs: z.number() });

// Present in Node and in every extension context; declared here because protocol has no DOM lib.
declare const performance: { readonly timeOrigin: number; now(): number };

/** A timestamp comparable across processes on one machine (sub-millisecond where available). */
export function hopTime(): number {
  return performance.timeOrigin + performance.now();
}

/** Appends a hop to a traced frame's list; untraced frames stay untouched. */
export function stampHop<F extends { hops?: Hops | undefined }>(frame: F, hop: string): F {
  if (!frame.hops) return frame;
  return { ...frame, hops: [...frame.hops, { hop, at: hopTime() }] };
}
