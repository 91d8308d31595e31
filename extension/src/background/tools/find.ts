/** Find area's handler: the outline's elements that match a text (browser_find). */
import { BridgeError, ErrorCode, textResult, type FindOutput } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { matchesIn } from '../elements/target';
import { formatOutlineLines, refOfLine } from '../outline/format';
import { takeOutline } from '../outline/tabOutline';
import { untrustedSection } from '../common/text';

const DEFAULT_LIMIT = 50;

function matcherFor(
  text: string | undefined,
  regex: string | undefined,
): (line: string) => boolean {
  if ((text === undefined) === (regex === undefined)) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'Give exactly one of text or regex.',
      'For example {"text": "Checkout"}.',
    );
  }
  if (text !== undefined) {
    const needle = text.toLowerCase();
    return (line) => line.toLowerCase().includes(needle);
  }
  let pattern: RegExp;
  // A literal ("/apples/i") keeps its own flags; a bare source matches in any case.
  const literal = /^\/([\s\S]+)\/([dgimsuvy]*)$/.exec(regex ?? '');
  try {
    pattern =
      literal === null
        ? new RegExp(regex ?? '', 'i')
        : new RegExp(literal[1] ?? '', literal[2]?.replace(/[gy]/g, ''));
  } catch (err) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Invalid regex: ${err instanceof Error ? err.message : String(err)}`,
      'Give a JavaScript regular expression, e.g. "^Item \\d+$" or "/^item/i", or use text.',
    );
  }
  return (line) => pattern.test(line);
}

/** Text lines that get the ref of the element showing them, per call (one page query each). */
const MAX_TEXT_REFS = 10;
/** Enough of a text line to find its element; the page matches it as a substring. */
const TEXT_PROBE_CHARS = 200;

/** The page text of a line without a ref (`- text: …`, `- paragraph: …`), as the page shows it. */
function textOfLine(line: string): string | undefined {
  const value = /^- [\w-]+(?: "(?:[^"\\]|\\.)*")?: (.+)$/.exec(line)?.[1];
  if (value === undefined) return undefined;
  let text = value;
  if (text.startsWith('"')) {
    try {
      text = String(JSON.parse(text));
    } catch {
      return undefined;
    }
  }
  // Joined paragraphs and cut text: the first paragraph's opening is what the page shows.
  text = (text.split(' ¶ ')[0] ?? '').replace(/… \[\+\d+ chars[^\]]*\]$/, '');
  return text.trim() === '' ? undefined : text.slice(0, TEXT_PROBE_CHARS);
}

/** The ref of the innermost visible element that shows the text (given a ref as find hands out). */
async function textRef(tab: TabHandle, text: string): Promise<string | undefined> {
  const found = await matchesIn(tab, `byText(${JSON.stringify(text)})`, 'text').catch(() => []);
  return found[0]?.ref;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The heads of a line's ancestors, outermost first, read from the indentation above it. */
function pathTo(lines: readonly string[], index: number): string[] {
  const path: string[] = [];
  let indent = indentOf(lines[index] ?? '');
  for (let i = index - 1; i >= 0 && indent > 0; i -= 1) {
    const line = lines[i] ?? '';
    if (indentOf(line) < indent) {
      path.unshift(line.trim().replace(/^- /, '').replace(/:$/, ''));
      indent = indentOf(line);
    }
  }
  return path;
}

export const find: Handler<'browser_find'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const matches = matcherFor(args.text, args.regex);
  const lines = formatOutlineLines(await takeOutline(tab));
  const limit = args.limit ?? DEFAULT_LIMIT;
  const hits: string[] = [];
  const found: FindOutput['matches'] = [];
  let total = 0;
  let textRefs = 0;
  for (const [i, line] of lines.entries()) {
    if (!matches(line.trim())) continue;
    total += 1;
    if (hits.length >= limit) continue;
    const path = pathTo(lines, i);
    const text = refOfLine(line) === undefined ? textOfLine(line.trim()) : undefined;
    const ref =
      text !== undefined && textRefs < MAX_TEXT_REFS
        ? await textRef(tab, text).finally(() => (textRefs += 1))
        : undefined;
    found.push({ line: line.trim(), path, ...(ref === undefined ? {} : { ref }) });
    const refLine = ref === undefined ? '' : `\n  ref: ${ref} (the element showing this text)`;
    hits.push(
      `${line.trim()}${refLine}\n  path: ${path.length === 0 ? '(top level)' : path.join(' > ')}`,
    );
  }
  const data: FindOutput = { generation: tab.state.generation, total, matches: found };
  const generation = `- Snapshot generation: ${tab.state.generation}`;
  if (total === 0) return textResult(`${generation}\nNo line of the page outline matches.`, data);
  const more =
    total > hits.length
      ? `\n[${total - hits.length} more hits; pass a larger limit or a narrower query.]`
      : '';
  return textResult(
    `${generation}\n${untrustedSection(`${total} hit(s)`, hits.join('\n'), 'yaml')}${more}`,
    data,
  );
};

/** The find area's handlers, by tool name. */
export const findHandlers = {
  browser_find: find,
} satisfies AreaHandlers;
