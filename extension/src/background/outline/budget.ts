/**
 * Fitting the default snapshot into its character budget without losing what an agent acts on.
 * In order, until it fits:
 *   1. the whole outline as is;
 *   2. rows of simple cells on one line each, and text cut to 200 characters (marked);
 *   3. rows that hold a control written as their controls only, then text cut to 60 characters;
 *   4. text lines (prose, plain cells) left out, each run replaced by one line that names its
 *      region and the call that shows it (a subtree ref, or browser_find);
 *   5. only then the tail, with the marker snapshot.ts writes (a ref subtree, maxChars, find).
 * Controls, headings and form fields (lines with a ref) are never shortened or left out before
 * step 5.
 */
import type { OutlineNode } from './nodes';
import { formatOutlineLines, refOfLine } from './format';

// Rows go down to their controls before prose is cut to 60 characters: a table's repeated cells
// say less than a paragraph's first sentences.
const STEPS = [
  { compactRows: true, maxTextChars: 200 },
  { compactRows: true, maxTextChars: 200, rowControlsOnly: true },
  { compactRows: true, maxTextChars: 60, rowControlsOnly: true },
] as const;

const size = (lines: readonly string[]) => lines.reduce((n, line) => n + line.length + 1, 0);

/** A prose line: page text with no ref (text, paragraph, a cell or item that is only text). */
function isProse(line: string): boolean {
  if (refOfLine(line) !== undefined) return false;
  return /^\s*- (text|paragraph|term|definition|cell|gridcell|listitem|blockquote|caption|code|emphasis|strong|time|figure|note): /.test(
    line,
  );
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The lines to show within budgetChars (the tail may still be cut by the caller), and whether
 * anything was shortened or left out.
 */
export function fitOutline(
  nodes: readonly OutlineNode[],
  whole: readonly string[],
  budgetChars: number,
): { lines: readonly string[]; note: string | undefined } {
  if (size(whole) <= budgetChars) return { lines: whole, note: undefined };
  let lines: readonly string[] = whole;
  for (const step of STEPS) {
    lines = formatOutlineLines(nodes, Number.POSITIVE_INFINITY, step);
    if (size(lines) <= budgetChars) {
      if ('rowControlsOnly' in step)
        return {
          lines,
          note: leftOut(
            lines,
            whole,
            "rows are written as their controls only (their text cells, their links' URLs and the rows' refs left out)",
            firstRowRef(nodes),
          ),
        };
      return {
        lines,
        note: `[Snapshot compacted to fit ${budgetChars} characters: rows of simple cells are written on one line (their links' URLs and the rows' refs left out), and long text is cut where marked "… [+N chars]". browser_snapshot with a control's ref, browser_find, or a larger maxChars shows a part in full.]`,
      };
    }
  }
  const kept = withoutProse(lines);
  const example = /browser_snapshot \{"ref": "(e\d+)"\}/.exec(kept.join('\n'))?.[1];
  return {
    lines: kept,
    note: leftOut(
      kept,
      whole,
      'text was shortened, rows written as their controls only, and where text was left out a line names the call that shows it',
      example,
    ),
  };
}

/** The marker for a snapshot that leaves content out (in snapshot.ts's truncation wording). */
function leftOut(
  lines: readonly string[],
  whole: readonly string[],
  what: string,
  ref: string | undefined,
): string {
  const refTip = ref === undefined ? '' : ` a subtree ref (e.g. {"ref": "${ref}"}),`;
  return (
    `[Snapshot truncated: showing ${lines.length} of ${whole.length} lines (${size(lines)} of ${size(whole)} characters); ` +
    `compacted to keep every control, heading and field: ${what}. ` +
    `To see the rest, call browser_snapshot with${refTip} a larger maxChars; or search with browser_find.]`
  );
}

/** The ref of the first table row (its subtree shows the row in full). */
function firstRowRef(nodes: readonly OutlineNode[]): string | undefined {
  for (const node of nodes) {
    if (node.kind !== 'element') continue;
    if (
      node.role === 'row' &&
      node.ref !== undefined &&
      node.children.some((c) => c.kind === 'element' && c.role === 'cell')
    )
      return node.ref;
    const inner = firstRowRef(node.children);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Runs of prose lines replaced by one line naming their region and how to see them. */
function withoutProse(lines: readonly string[]): string[] {
  const out: string[] = [];
  // The nearest line above with a ref, per indent: the region a run of text belongs to.
  const regions: { indent: number; ref: string; head: string }[] = [];
  let run = 0;
  let runIndent = 0;
  let firstWords = '';
  const flush = () => {
    if (run === 0) return;
    const region = regions.filter((r) => r.indent < runIndent).at(-1);
    const how =
      region === undefined
        ? `browser_find with a few of its words (it begins ${firstWords})`
        : `browser_snapshot {"ref": "${region.ref}"} (in ${region.head})`;
    out.push(`${' '.repeat(runIndent)}- [${run} text line(s) left out; ${how}]`);
    run = 0;
  };
  for (const line of lines) {
    const indent = indentOf(line);
    if (isProse(line)) {
      if (run === 0) {
        runIndent = indent;
        firstWords = JSON.stringify(
          line
            .trimStart()
            .replace(/^- [\w-]+: /, '')
            .slice(0, 40),
        );
      }
      run += 1;
      continue;
    }
    flush();
    out.push(line);
    const ref = refOfLine(line);
    while (regions.length > 0 && (regions.at(-1)?.indent ?? 0) >= indent) regions.pop();
    if (ref !== undefined) {
      const head = line.trimStart().slice(2).split(' [')[0] ?? '';
      regions.push({ indent, ref, head: head.slice(0, 60) });
    }
  }
  flush();
  return out;
}
