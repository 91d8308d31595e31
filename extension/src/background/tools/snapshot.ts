/** Snapshot area's handler: the tab's outline with refs, or a diff since the last look. */
import {
  BridgeError,
  DEFAULT_SNAPSHOT_MAX_CHARS,
  ErrorCode,
  textResult,
  type SnapshotOutput,
} from '@browser-agent/protocol';
import { isPdfDocument, PDF_PAGE_NOTE } from '../loading/pdfPage';
import type { AreaHandlers, Handler } from '../handlerContext';
import { Hint } from '../common/hints';
import { fitOutline } from '../outline/budget';
import { formatOutlineLines, refOfLine } from '../outline/format';
import { formatPageInfo, fromOneDocument, pageInfo } from '../loading/pageInfo';
import { addBoxes } from '../outline/boxes';
import { findByRef, takeOutline } from '../outline/tabOutline';
import { refFromArg } from '../elements/refTable';
import { oneLine, untrustedSection } from '../common/text';

/** A snapshot saved to a file is cut only here (it never enters the agent's context). */
const FILE_MAX_CHARS = 2_000_000;
/** Room kept for the truncation marker, which names counts and a ref (about 300 characters). */
const MARKER_RESERVE_CHARS = 400;
/** Room kept for the note saying how the outline was compacted to fit (budget.ts). */
const NOTE_RESERVE_CHARS = 400;

export const snapshot: Handler<'browser_snapshot'> = async (args, ctx) => {
  // In launch mode the session starts on a blank tab, which a screenshot already shows: the
  // outline of that tab is there too, instead of NO_TAB (#27).
  const tab =
    ctx.settings?.startsWithBlankTab === true ? await ctx.ensureTab() : await ctx.currentTab();
  const [outline, info] = await fromOneDocument(tab, () =>
    Promise.all([takeOutline(tab), pageInfo(tab.cdp)]),
  );
  // The whole page is what the next action's diff compares against, whatever part is shown.
  const wholePage = formatOutlineLines(outline);
  tab.state.lastOutline = wholePage;
  let nodes = outline;
  let scope = '';
  if (args.ref !== undefined) {
    const ref = refFromArg(args.ref);
    const root = findByRef(outline, ref);
    if (root === undefined) {
      throw new BridgeError(
        ErrorCode.STALE_REF,
        `Ref ${oneLine(ref, 40)} is not on the page now.`,
        Hint.freshRefs,
      );
    }
    nodes = [root];
    scope = ` (subtree of ${ref})`;
  }
  if (args.boxes === true) await addBoxes(tab, nodes);
  const lines =
    nodes === outline && args.depth === undefined && args.boxes !== true
      ? wholePage
      : formatOutlineLines(nodes, args.depth);
  // A snapshot saved to a file (the server writes it) is not read into the agent's context.
  const maxChars =
    args.maxChars ?? (args.filename === undefined ? DEFAULT_SNAPSHOT_MAX_CHARS : FILE_MAX_CHARS);
  const head = `${formatPageInfo(info)}\n- Snapshot generation: ${tab.state.generation}`;
  const heading = `Page snapshot${scope}`;
  // maxChars bounds the whole response: the head, the fence and the marker come out of it too.
  const frame = head.length + untrustedSection(heading, '', 'yaml').length + 1;
  const total = lines.reduce((n, line) => n + line.length + 1, 0);
  const fits = total + frame <= maxChars;
  const budget = Math.max(0, maxChars - frame - MARKER_RESERVE_CHARS - NOTE_RESERVE_CHARS);
  // Too big: compacted first (controls and headings kept, text shortened or left out with a
  // pointer), and only what still does not fit is cut from the tail.
  const fitted =
    fits || args.depth !== undefined
      ? { lines, note: undefined }
      : fitOutline(nodes, lines, budget);
  const { body, marker } = cutLines(fitted.lines, fits ? total : budget);
  const section = untrustedSection(heading, body, 'yaml');
  const data: SnapshotOutput = {
    url: info.url,
    title: info.title,
    generation: tab.state.generation,
    truncated: marker !== undefined,
  };
  // An empty outline on a PDF tab is the viewer's, not an empty page.
  const pdf = outline.length === 0 && (await isPdfDocument(tab.cdp)) ? PDF_PAGE_NOTE : undefined;
  return textResult(
    [head, section, fitted.note, marker, pdf].filter((part) => part !== undefined).join('\n'),
    data,
  );
};

/** Whole lines up to maxChars, and when some are left out, a marker saying how to see them. */
export function cutLines(
  lines: readonly string[],
  maxChars: number,
): { body: string; marker: string | undefined } {
  let size = 0;
  let kept = 0;
  for (const line of lines) {
    if (size + line.length + 1 > maxChars) break;
    size += line.length + 1;
    kept += 1;
  }
  if (kept === lines.length) return { body: lines.join('\n'), marker: undefined };
  let nextRef: string | undefined;
  for (let i = kept; i < lines.length && nextRef === undefined; i += 1)
    nextRef = refOfLine(lines[i] ?? '') ?? refInCompactRow(lines[i] ?? '');
  const total = lines.reduce((n, l) => n + l.length + 1, 0);
  const refTip = nextRef === undefined ? '' : ` a subtree ref (e.g. {"ref": "${nextRef}"}),`;
  const marker =
    `[Snapshot truncated: showing ${kept} of ${lines.length} lines (${size} of ${total} characters). ` +
    `To see the rest, call browser_snapshot with${refTip} a smaller depth, or a larger maxChars; or search with browser_find.]`;
  return { body: lines.slice(0, kept).join('\n'), marker };
}

/** The first control's ref in a compact row line (budget.ts), never one inside quoted page text. */
function refInCompactRow(line: string): string | undefined {
  if (!/^\s*- row: /.test(line)) return undefined;
  return /\[(e\d+)\]/.exec(line.replace(/"(?:[^"\\]|\\.)*"/g, '""'))?.[1];
}

/** The snapshot area's handlers, by tool name. */
export const snapshotHandlers = {
  browser_snapshot: snapshot,
} satisfies AreaHandlers;
