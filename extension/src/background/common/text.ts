/**
 * Text shaping for tool output. Everything a page controls (names, values, titles, console text)
 * goes through here, so page content can neither forge lines of our own output nor break out of
 * the fenced block that marks it as untrusted.
 */

const MAX_LINE_CHARS = 500;

// C0/C1 controls and bidi overrides: they can hide or reorder text in what the model reads.
const UNSAFE_CHARS = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** Collapses page text to one trimmed line, capped at maxChars. */
export function oneLine(text: string, maxChars: number = MAX_LINE_CHARS): string {
  const flat = text.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

/** Caps text at maxChars, saying how much was cut. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… truncated ${text.length - maxChars} more characters]`;
}

/** A fenced block whose fence is longer than any backtick run inside, so the body cannot close it. */
function fenced(body: string, lang = ''): string {
  const longestRun = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

/** A section of page-derived content, labelled so the model treats it as data, not instructions. */
export function untrustedSection(heading: string, body: string, lang = ''): string {
  return `### ${heading} (untrusted page content)\n${fenced(body, lang)}`;
}

/** Quotes a name the way the outline shows it: a JSON string on one line. */
export function quoted(text: string): string {
  return JSON.stringify(oneLine(text));
}
