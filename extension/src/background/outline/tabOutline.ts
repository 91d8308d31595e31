/**
 * The page model the agent reads: the outline with refs (a new generation each time), its
 * lines, and what changed since the agent last looked. Snapshots, finds and action results
 * all come from here, so they agree on refs and on what "last seen" means.
 */
import type { TabHandle } from '../tabStates';
import { pageOutline } from './frames';
import type { OutlineElement, OutlineNode } from './nodes';
import { formatOutlineLines, refOfLine } from './format';
import { assignRefs } from '../elements/refTable';
import { untrustedSection } from '../common/text';

/** Diffs longer than this are replaced by a pointer to browser_snapshot. */
const MAX_DIFF_CHARS = 8_000;

/**
 * A fresh outline of the tab, refs assigned, secret values hidden; starts a generation. `read`:
 * the tab's outline already read page-side (an action's look, acting/earlyLook.ts).
 */
export async function takeOutline(tab: TabHandle, read?: OutlineNode[]): Promise<OutlineNode[]> {
  const outline = read ?? (await pageOutline(tab));
  assignRefs(tab.state, outline);
  return outline;
}

export function findByRef(nodes: readonly OutlineNode[], ref: string): OutlineElement | undefined {
  for (const node of nodes) {
    if (node.kind !== 'element') continue;
    if (node.ref === ref) return node;
    const inner = findByRef(node.children, ref);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Line diff keyed by ref: a ref's line that reads differently is "changed"; lines without a
 * ref (text) are compared as a multiset, so moving text around is not reported as churn.
 */
export function diffOutlines(before: readonly string[], after: readonly string[]): string[] {
  // Lines equal in both at either end are no change, and are not read (#26: after a click on a
  // 5,000-element page the diff read both outlines' every line, ~10 ms, mostly to find none).
  // A ref names one line per outline, so one in the equal ends is in neither middle; a text
  // line's count differs between the middles as between the wholes.
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < shorter - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end += 1;
  if (start === before.length && start === after.length) return [];
  return diffMiddles(
    before.slice(start, before.length - end),
    after.slice(start, after.length - end),
  );
}

function diffMiddles(before: readonly string[], after: readonly string[]): string[] {
  // Each line's ref is read once: the head regex runs over every line of both outlines.
  const read = (lines: readonly string[]) =>
    lines.map((line) => ({ trimmed: withoutFocus(line.trim()), ref: refOfLine(line) }));
  const oldLines = read(before);
  const newLines = read(after);
  const refLine = (lines: ReturnType<typeof read>): Map<string, string> => {
    const map = new Map<string, string>();
    for (const { trimmed, ref } of lines) if (ref !== undefined) map.set(ref, trimmed);
    return map;
  };
  const oldRefs = refLine(oldLines);
  const newRefs = refLine(newLines);
  const oldText = new Map<string, number>();
  for (const { trimmed, ref } of oldLines)
    if (ref === undefined) oldText.set(trimmed, (oldText.get(trimmed) ?? 0) + 1);
  const out: string[] = [];
  for (const { trimmed, ref } of newLines) {
    if (ref !== undefined) {
      const old = oldRefs.get(ref);
      if (old === undefined) out.push(`+ ${trimmed}`);
      else if (old !== trimmed) out.push(`~ ${trimmed}`);
      continue;
    }
    const count = oldText.get(trimmed) ?? 0;
    if (count > 0) oldText.set(trimmed, count - 1);
    else out.push(`+ ${trimmed}`);
  }
  for (const [ref, line] of oldRefs) if (!newRefs.has(ref)) out.push(`- ${line}`);
  for (const [line, count] of oldText) for (let i = 0; i < count; i += 1) out.push(`- ${line}`);
  return out;
}

// The `[active]` token right after a line's ref (outline/format.ts), never page text.
const FOCUS_IN_HEAD =
  /^(- [\w-]+(?: "(?:[^"\\]|\\.)*")?(?: \[[^\]]*\])*? \[e\d+\]) \[active\](?=$| |:)/;

/** Focus moving is no change of the page: a diff compares lines without the focus marker. */
function withoutFocus(line: string): string {
  return line.replace(FOCUS_IN_HEAD, '$1');
}

/**
 * What changed on the page since the agent's last snapshot, as lines for an action's result;
 * the new outline becomes the last seen. Undefined when the agent has not looked yet. `read`:
 * the tab's outline as the action's look read it (else it is read now).
 */
export async function changesSinceLastLook(
  tab: TabHandle,
  read?: OutlineNode[],
): Promise<string | undefined> {
  const before = tab.state.lastOutline;
  if (before === undefined) return undefined;
  const lines = formatOutlineLines(await takeOutline(tab, read));
  tab.state.lastOutline = lines;
  const diff = diffOutlines(before, lines);
  const heading = `Changes since your last snapshot (now generation ${tab.state.generation}; + added, - removed, ~ changed)`;
  if (diff.length === 0) return `### ${heading}\nNo changes.`;
  const body = diff.join('\n');
  if (body.length > MAX_DIFF_CHARS) {
    return `### ${heading}\n[${diff.length} lines changed, too many to list; call browser_snapshot.]`;
  }
  return untrustedSection(heading, body, 'diff');
}
