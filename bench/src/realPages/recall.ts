/**
 * How much of what a person sees a snapshot kept, judged the same way on every server's text:
 * both sides are lower-cased and reduced to letters and digits between single spaces, so YAML
 * quoting, `uid=` prefixes or ref marks do not count for or against anyone. A name or sentence
 * counts when it appears whole, bounded by spaces ("item 7" is not found in "item 71").
 */
export function normalize(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/** The share of `wanted` found in `text`; 1 when nothing is wanted. */
export function recall(text: string, wanted: readonly string[]): number {
  if (wanted.length === 0) return 1;
  const haystack = normalize(text);
  let found = 0;
  for (const w of wanted) if (haystack.includes(normalize(w))) found++;
  return found / wanted.length;
}
