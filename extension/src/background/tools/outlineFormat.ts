/**
 * Renders the outline as YAML-like lines, in the shape Playwright MCP snapshots use:
 *   - heading "Title" [level=1] [ref=e1]
 *   - textbox "Name" [ref=e3]: current value
 *   - link "Docs" [ref=e5]:
 *     - /url: http://…
 *   - text: plain text
 * Every page string passes through oneLine first, so no page text can start a line of its own.
 */
import type { OutlineElement, OutlineNode } from './outline';
import { oneLine, quoted } from './text';

const INDENT = '  ';
const MAX_URL_CHARS = 2_000;

export function formatOutline(nodes: readonly OutlineNode[]): string {
  return formatOutlineLines(nodes).join('\n');
}

/** The outline's lines; below maxDepth levels a subtree is replaced by a line saying how big it is. */
export function formatOutlineLines(
  nodes: readonly OutlineNode[],
  maxDepth = Number.POSITIVE_INFINITY,
): string[] {
  const lines: string[] = [];
  for (const node of nodes) appendNode(node, 0, lines, maxDepth);
  return lines;
}

function appendNode(node: OutlineNode, depth: number, lines: string[], maxDepth: number): void {
  const pad = INDENT.repeat(depth);
  if (node.kind === 'text') {
    lines.push(`${pad}- text: ${scalar(node.text)}`);
    return;
  }
  const head = `${pad}- ${headOf(node)}`;
  const only = node.children[0];
  if (node.url === undefined && node.children.length === 1 && only?.kind === 'text') {
    lines.push(`${head}: ${scalar(only.text)}`);
  } else if (node.children.length > 0 && depth + 1 >= maxDepth) {
    const hidden = formatOutlineLines(node.children).length;
    const inner = node.ref ?? firstRef(node.children);
    const how =
      inner === undefined
        ? 'a larger depth'
        : `browser_snapshot with ref ${inner}${node.ref === undefined ? ' or another ref inside' : ''}`;
    lines.push(`${head}:`, `${pad}${INDENT}- [${hidden} lines below the depth limit; ${how}]`);
  } else if (node.url !== undefined || node.children.length > 0) {
    lines.push(`${head}:`);
    for (const child of node.children) appendNode(child, depth + 1, lines, maxDepth);
    if (node.url !== undefined)
      lines.push(`${pad}${INDENT}- /url: ${scalar(oneLine(node.url, MAX_URL_CHARS))}`);
  } else if (node.value !== undefined && !node.valueHidden) {
    lines.push(`${head}: ${scalar(node.value)}`);
  } else {
    lines.push(head);
  }
}

function headOf(node: OutlineElement): string {
  const parts = [node.role];
  if (node.name !== '') parts.push(quoted(node.name));
  for (const state of node.states) parts.push(`[${state}]`);
  if (node.valueHidden) parts.push('[value hidden]');
  if (node.ref !== undefined) parts.push(`[ref=${node.ref}]`);
  if (node.pointer) parts.push('[cursor=pointer]');
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
