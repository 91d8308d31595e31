/**
 * Prints of the `--secrets` values, so the page model can find one shown as page text and keep
 * it out of screenshot pixels and PDF bytes (extension page/domSecrets.ts) without the value
 * travelling to the browser. A print is a rolling hash over the value's UTF-16 code units, one
 * per base; the server picks the bases at random per process. It tells no more about a value
 * than the SHA-256 digest the extension already holds (both let a guess be checked, neither can
 * be turned back), and it can be slid along a page's text in one pass, which a digest cannot.
 *
 * Both functions close over nothing: the page model serialises findPrinted with toString.
 */
import { z } from './zod.js';

export const secretPrintsSchema = z.object({
  /** Two random bases below 2^22 (a print times a base stays exact in a double). */
  bases: z
    .tuple([z.number().int().min(2), z.number().int().min(2)])
    .refine(([a, b]) => a < 2 ** 22 && b < 2 ** 22, 'bases below 2^22'),
  /** One entry per value: its length in UTF-16 code units and its print under each base. */
  marks: z
    .array(
      z.object({
        length: z.number().int().min(1).max(100_000),
        prints: z.tuple([z.number().int().min(0), z.number().int().min(0)]),
      }),
    )
    .max(1000),
});
export type SecretPrints = z.infer<typeof secretPrintsSchema>;

/** The print of `value` under `base` (the prime is 1e9+7, below 2^30). */
export function printOf(value: string, base: number): number {
  const prime = 1_000_000_007;
  let h = 0;
  for (let i = 0; i < value.length; i += 1) h = (h * base + value.charCodeAt(i)) % prime;
  return h;
}

/**
 * Every [start, end) span of `text` whose length and both prints are one mark's, left to right,
 * overlapping spans merged. One pass over the text per distinct length.
 */
export function findPrinted(text: string, prints: SecretPrints): [number, number][] {
  const prime = 1_000_000_007;
  const [b0, b1] = prints.bases;
  // length → first print → second prints: the window's first print is checked on its own.
  const byLength = new Map<number, Map<number, Set<number>>>();
  for (const m of prints.marks) {
    if (m.length > text.length) continue;
    const firsts = byLength.get(m.length) ?? new Map<number, Set<number>>();
    const seconds = firsts.get(m.prints[0]) ?? new Set<number>();
    seconds.add(m.prints[1]);
    firsts.set(m.prints[0], seconds);
    byLength.set(m.length, firsts);
  }
  const spans: [number, number][] = [];
  for (const [length, wanted] of byLength) {
    // base^(length-1): what the code unit leaving the window weighs.
    let top0 = 1;
    let top1 = 1;
    for (let i = 1; i < length; i += 1) {
      top0 = (top0 * b0) % prime;
      top1 = (top1 * b1) % prime;
    }
    let h0 = 0;
    let h1 = 0;
    for (let i = 0; i < text.length; i += 1) {
      if (i >= length) {
        const out = text.charCodeAt(i - length);
        h0 = (h0 - ((out * top0) % prime) + prime) % prime;
        h1 = (h1 - ((out * top1) % prime) + prime) % prime;
      }
      const c = text.charCodeAt(i);
      h0 = (h0 * b0 + c) % prime;
      h1 = (h1 * b1 + c) % prime;
      if (i >= length - 1 && wanted.get(h0)?.has(h1) === true) spans.push([i - length + 1, i + 1]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** The prints the server sends for its secrets' values, under two bases it picked. */
export function secretPrintsOf(values: Iterable<string>, bases: [number, number]): SecretPrints {
  const marks = [...new Set(values)]
    .filter((v) => v.length > 0 && v.length <= 100_000)
    .slice(0, 1000)
    .map((v) => ({
      length: v.length,
      prints: [printOf(v, bases[0]), printOf(v, bases[1])] as [number, number],
    }));
  return { bases, marks };
}
