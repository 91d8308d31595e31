/**
 * Progress goes to stderr, results to stdout: both belong to the bench process only. The MCP
 * servers are children whose stdio the SDK owns, so nothing here can reach their MCP stdout.
 */
export function progress(message: string): void {
  const seconds = (performance.now() / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${seconds} s] ${message}\n`);
}

export function result(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}
