/** Comparing the release numbers the daemon and the extension name in their handshake. */

/** Negative when a is older than b; unknown, unparsable or equal releases compare as 0. */
export function compareReleases(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return 0;
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (Number.isNaN(x) || Number.isNaN(y)) return 0;
    if (x !== y) return x - y;
  }
  return 0;
}
