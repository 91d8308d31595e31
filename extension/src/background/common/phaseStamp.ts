// TEMPORARY instrumentation (session 15), not to be committed.
let t0 = 0;
let marks: string[] = [];
export function phaseStart(): void {
  t0 = performance.now();
  marks = [];
}
export function phase(label: string): void {
  marks.push(`${label}=${(performance.now() - t0).toFixed(1)}`);
}
export function phaseText(): string {
  return `\n[ph ${marks.join(' ')}]`;
}
