/**
 * Renders the outline as YAML-like lines, in the shape Playwright MCP snapshots use:
 *   - heading "Title" [level=1] [e1]
 *   - textbox "Name" [e3]: current value
 *   - link "Docs" [e5] [url=http://…]
 *   - paragraph: First paragraph. ¶ The next one.
 *   - term "Owner": Team 1
 *   - text: plain text
 * Every page string passes through oneLine first, so no page text can start a line of its own.
 *
 * Cheaper than Playwright's form where it has slack, since a 5,000-element page must fit in
 * 80k characters: a ref is written `[e3]`, not `[ref=e3]` (refs are a fifth of a page of
 * controls, and no state token reads `e<digits>`), a link's URL sits in its own line as
 * `[url=…]` rather than on a `/url:` line below it, an in-page anchor (`#section`) shows no URL
 * (clicking it only scrolls), neighbouring text-only paragraphs share one line, split by ` ¶ `,
 * and a description list's term and its definition share one, the term as the name (as a
 * textbox's label and value do).
 */
import type { OutlineElement, OutlineNode } from './nodes';
import { oneLine, quoted } from '../common/text';

const INDENT = '  ';
const MAX_URL_CHARS = 2_000;

/** How tightly to write the outline when the whole of it does not fit the budget (budget.ts). */
export interface FormatOptions {
  /** A table row whose cells hold only text and leaf controls is one line: `- row: "1" | link "Item 1" [e5]`. */
  compactRows?: boolean;
  /** Text (text lines, paragraphs, cells) longer than this is cut, with a mark saying how much. */
  maxTextChars?: number;
  /** In a compact row that holds a control, only its controls are written (its text cells not). */
  rowControlsOnly?: boolean;
}

let options: FormatOptions = {};

/** The outline's lines; below maxDepth levels a subtree is replaced by a line saying how big it is. */
export function formatOutlineLines(
  nodes: readonly OutlineNode[],
  maxDepth = Number.POSITIVE_INFINITY,
  formatOptions: FormatOptions = {},
): string[] {
  const lines: string[] = [];
  const outer = options;
  options = formatOptions;
  try {
    appendNodes(nodes, 0, lines, maxDepth);
  } finally {
    options = outer;
  }
  return lines;
}

/** Page text as written: cut at options.maxTextChars, with the cut marked. */
function shortened(text: string): string {
  const max = options.maxTextChars;
  if (max === undefined || text.length <= max) return text;
  return `${text.slice(0, max)}… [+${text.length - max} chars]`;
}

const CELL_ROLES: ReadonlySet<string> = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** A row of simple cells on one line, or undefined when a cell holds more than text and leaves. */
function compactRow(node: OutlineElement): string | undefined {
  if (node.role !== 'row' || node.children.length === 0) return undefined;
  const cells: string[] = [];
  for (const cell of node.children) {
    if (cell.kind !== 'element' || !CELL_ROLES.has(cell.role)) return undefined;
    const parts: string[] = [];
    for (const child of cell.children) {
      if (child.kind === 'text') parts.push(cellText(shortened(child.text)));
      else if (child.children.length === 0) parts.push(leafHead(child));
      else if (child.children.length === 1 && child.children[0]?.kind === 'text')
        parts.push(leafHead(child));
      else return undefined;
    }
    if (cell.children.length === 0 && cell.name !== '') parts.push(cellText(shortened(cell.name)));
    cells.push(parts.join(' '));
  }
  if (options.rowControlsOnly === true) {
    const controls = node.children.flatMap((cell) =>
      cell.kind === 'element'
        ? cell.children.flatMap((c) =>
            c.kind === 'element' && c.ref !== undefined ? [leafHead(c)] : [],
          )
        : [],
    );
    if (controls.length > 0) return `- row: ${controls.join(' | ')}`;
  }
  return `- row: ${cells.join(' | ')}`;
}

/**
 * A cell's text in a compact row: bare when it holds nothing that could read as a ref, a quote
 * or a cell boundary, else a JSON string.
 */
function cellText(text: string): string {
  return /^[\p{L}\p{N} .,:;%$€£+\-/()…]+$/u.test(text) ? text : quoted(text);
}

/** A leaf control inside a compact row: role, name, states and ref (its URL: by its ref). */
function leafHead(node: OutlineElement): string {
  const parts = [node.role];
  const name =
    node.name !== '' ? node.name : node.children[0]?.kind === 'text' ? node.children[0].text : '';
  if (name !== '') parts.push(quoted(shortened(name)));
  for (const state of node.states) parts.push(`[${state}]`);
  if (node.ref !== undefined) parts.push(`[${node.ref}]`);
  return parts.join(' ');
}

const PARAGRAPH_BREAK = ' ¶ ';

function appendNodes(
  nodes: readonly OutlineNode[],
  depth: number,
  lines: string[],
  maxDepth: number,
): void {
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i];
    if (node === undefined) continue;
    const text = blockText(node);
    if (text === undefined || node.kind !== 'element') {
      appendNode(node, depth, lines, maxDepth);
      continue;
    }
    const pad = INDENT.repeat(depth);
    const next = nodes[i + 1];
    if (node.role === 'term' && next?.kind === 'element' && next.role === 'definition') {
      const definition = blockText(next);
      if (definition !== undefined) {
        lines.push(`${pad}- term ${quoted(text)}: ${scalar(shortened(definition))}`);
        i += 1;
        continue;
      }
    }
    // Each paragraph is shortened on its own, so every one of them keeps its opening words.
    const parts = [shortened(text)];
    for (let more = nodes[i + 1]; node.role === 'paragraph' && more?.kind === 'element';) {
      const moreText = more.role === node.role ? blockText(more) : undefined;
      if (moreText === undefined) break;
      parts.push(shortened(moreText));
      i += 1;
      more = nodes[i + 1];
    }
    lines.push(`${pad}- ${node.role}: ${scalar(parts.join(PARAGRAPH_BREAK))}`);
  }
}

const TEXT_BLOCK_ROLES: ReadonlySet<string> = new Set(['paragraph', 'term', 'definition']);

/** The text of a block that is nothing but text (no ref, name, state or URL), else undefined. */
function blockText(node: OutlineNode): string | undefined {
  if (node.kind !== 'element' || !TEXT_BLOCK_ROLES.has(node.role)) return undefined;
  if (node.ref !== undefined || node.name !== '' || node.states.length > 0) return undefined;
  if (node.url !== undefined || node.pointer || node.children.length !== 1) return undefined;
  const only = node.children[0];
  return only?.kind === 'text' ? only.text : undefined;
}

/** Shown unless it is an in-page anchor: `#id` only scrolls; `#/route` and `#!route` navigate. */
function shownUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (url.startsWith('#') && !url.startsWith('#/') && !url.startsWith('#!')) return undefined;
  return oneLine(url, MAX_URL_CHARS);
}

function appendNode(node: OutlineNode, depth: number, lines: string[], maxDepth: number): void {
  const pad = INDENT.repeat(depth);
  if (node.kind === 'text') {
    lines.push(`${pad}- text: ${scalar(shortened(node.text))}`);
    return;
  }
  if (options.compactRows === true) {
    const row = compactRow(node);
    if (row !== undefined) {
      lines.push(pad + row);
      return;
    }
  }
  const head = `${pad}- ${headOf(node)}`;
  const only = node.children[0];
  if (node.children.length === 1 && only?.kind === 'text') {
    lines.push(`${head}: ${scalar(shortened(only.text))}`);
  } else if (node.children.length > 0 && depth + 1 >= maxDepth) {
    const hidden = formatOutlineLines(node.children).length;
    const inner = node.ref ?? firstRef(node.children);
    const how =
      inner === undefined
        ? 'a larger depth'
        : `browser_snapshot with ref ${inner}${node.ref === undefined ? ' or another ref inside' : ''}`;
    lines.push(`${head}:`, `${pad}${INDENT}- [${hidden} lines below the depth limit; ${how}]`);
  } else if (node.children.length > 0) {
    lines.push(`${head}:`);
    appendNodes(node.children, depth + 1, lines, maxDepth);
  } else if (node.value !== undefined && !node.valueHidden) {
    lines.push(`${head}: ${scalar(node.value)}`);
  } else {
    lines.push(head);
  }
}

/** The state of the element with the keyboard focus, written `[active]` as Playwright MCP does. */
const FOCUSED = 'active';

function headOf(node: OutlineElement): string {
  const parts = [node.role];
  if (node.name !== '') parts.push(quoted(node.name));
  for (const state of node.states) if (state !== FOCUSED) parts.push(`[${state}]`);
  if (node.valueHidden) parts.push('[value hidden]');
  if (node.ref !== undefined) parts.push(`[${node.ref}]`);
  // After the ref, so the focus moving never changes how a line reads up to its ref.
  if (node.states.includes(FOCUSED)) parts.push(`[${FOCUSED}]`);
  if (node.box !== undefined) parts.push(`[box=${node.box.join(',')}]`);
  if (node.pointer) parts.push('[cursor=pointer]');
  const url = shownUrl(node.url);
  if (url !== undefined) parts.push(`[url=${/[\s\]"]/.test(url) ? JSON.stringify(url) : url}]`);
  return parts.join(' ');
}

// Plain YAML scalars may not start with an indicator, contain ": " or " #", or read as another type.
const NEEDS_QUOTES =
  /^[-?:,[\]{}#&*!|>'"%@`\s]|:\s|\s#|[:\s]$|^(true|false|null|yes|no|on|off|~|[-+.\d][\d.eE+-]*)$/i;

/** A YAML scalar: plain when that reads unambiguously, a JSON string otherwise. */
function scalar(text: string): string {
  return text === '' || NEEDS_QUOTES.test(text) ? JSON.stringify(text) : text;
}

function firstRef(nodes: readonly OutlineNode[]): string | undefined {
  for (const node of nodes) {
    if (node.kind !== 'element') continue;
    const ref = node.ref ?? firstRef(node.children);
    if (ref !== undefined) return ref;
  }
  return undefined;
}

// Anchored to the line's head (role, quoted name, bracketed tokens), so page text that merely
// contains "[e5]" in a name, a value or a text line is never read as a ref.
const REF_IN_HEAD = /^\s*- [\w-]+(?: "(?:[^"\\]|\\.)*")?(?: \[[^\]]*\])*? \[(e\d+)\](?=$| |:)/;

/** The ref an outline line carries, if any. */
export function refOfLine(line: string): string | undefined {
  return REF_IN_HEAD.exec(line)?.[1];
}
