// TEMPORARY (session 15 measurement)
import { hopTime } from '@browser-agent/protocol';
export const marks: { hop: string; at: number }[] = [];
export function mark(hop: string): void {
  marks.push({ hop, at: hopTime() });
}
