import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { formatOutlineLines } from '../outline/format';
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
  try {
    pattern = new RegExp(regex ?? '', 'i');
  } catch (err) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Invalid regex: ${err instanceof Error ? err.message : String(err)}`,
      'Give a JavaScript regular expression without slashes, e.g. "^Item \\d+$", or use text.',
    );
  }
  return (line) => pattern.test(line);
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
  let total = 0;
  for (const [i, line] of lines.entries()) {
    if (!matches(line.trim())) continue;
    total += 1;
    if (hits.length >= limit) continue;
    const path = pathTo(lines, i);
    hits.push(`${line.trim()}\n  path: ${path.length === 0 ? '(top level)' : path.join(' > ')}`);
  }
  const generation = `- Snapshot generation: ${tab.state.generation}`;
  if (total === 0) return textResult(`${generation}\nNo line of the page outline matches.`);
  const more =
    total > hits.length
      ? `\n[${total - hits.length} more hits; pass a larger limit or a narrower query.]`
      : '';
  return textResult(
    `${generation}\n${untrustedSection(`${total} hit(s)`, hits.join('\n'), 'yaml')}${more}`,
  );
};

/** The find area's handlers, by tool name. */
export const findHandlers = {
  browser_find: find,
} satisfies AreaHandlers;
