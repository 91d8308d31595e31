/**
 * Text shaping for tool output. Everything a page controls (names, values, titles, console text)
 * goes through here, so page content can neither forge lines of our own output nor break out of
 * the fenced block that marks it as untrusted.
 */

import { oneLine } from '@browser-agent/protocol';

export { oneLine, untrustedSection } from '@browser-agent/protocol';

/** Caps text at maxChars, saying how much was cut. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… truncated ${text.length - maxChars} more characters]`;
}

/** Quotes a name the way the outline shows it: a JSON string on one line. */
export function quoted(text: string): string {
  return JSON.stringify(oneLine(text));
}
