/**
 * Page-controlled text in tool output: one line with the controls that hide or reorder text
 * removed, or a fenced block labelled as untrusted that the text inside cannot close. The
 * extension shapes its results with these (background/common/text.ts) and the MCP server the
 * notes it writes itself (the console events).
 */

const MAX_LINE_CHARS = 500;

// C0/C1 controls and bidi overrides: they can hide or reorder text in what the model reads.
const UNSAFE_CHARS = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** Collapses page text to one trimmed line, capped at maxChars. */
export function oneLine(text: string, maxChars: number = MAX_LINE_CHARS): string {
  const flat = text.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
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
