/**
 * Turns Chrome's full accessibility tree (Accessibility.getFullAXTree) into the outline the
 * snapshot shows: ignored nodes and nameless containers are folded away (their children move up),
 * per-line text boxes are dropped, and neighbouring text from one parent is merged into one line.
 * Pure: no CDP here, so it is tested against canned trees.
 */
import { axFlag, axName, axProperty, axRole, axValue, type AXNode } from './axNode';
import { CONTAINER_ROLES, DROPPED_ROLES, FIELD_ROLES, INLINE_ROLES, wantsRef } from './roles';
import { oneLine } from './text';

export interface OutlineText {
  kind: 'text';
  text: string;
}

export interface OutlineElement {
  kind: 'element';
  role: string;
  name: string;
  backendNodeId: number | undefined;
  /** Child CDP session of the out-of-process iframe holding the node (see frameOutlines.ts). */
  sessionId?: string;
  /** Its computed cursor is a pointer (see pointerCursor.ts). */
  pointer?: boolean;
  /** Shown in brackets after the name, in this order: checked, disabled, expanded, level, pressed, selected. */
  states: string[];
  value: string | undefined;
  /** Its value is typed text, which may be a secret (see secretFields.ts). */
  isField: boolean;
  valueHidden: boolean;
  url: string | undefined;
  wantsRef: boolean;
  /** Filled in by the ref table when the snapshot is taken. */
  ref: string | undefined;
  children: OutlineNode[];
}

export type OutlineNode = OutlineText | OutlineElement;

/** A text piece and the parent it came from; only pieces of one parent join without a break. */
interface TextPiece {
  kind: 'piece';
  text: string;
  group: string;
}

export function buildOutline(nodes: readonly AXNode[]): OutlineNode[] {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const root = nodes.find((n) => n.parentId === undefined) ?? nodes[0];
  if (root === undefined) return [];
  const visited = new Set<string>();

  const childrenOf = (node: AXNode): OutlineNode[] => {
    const pieces: (TextPiece | OutlineElement)[] = [];
    collect(node, node.nodeId, pieces);
    return mergeText(pieces);
  };

  const collect = (node: AXNode, group: string, out: (TextPiece | OutlineElement)[]): void => {
    for (const id of node.childIds ?? []) {
      const child = byId.get(id);
      if (child === undefined || visited.has(id)) continue;
      visited.add(id);
      const role = axRole(child);
      if (child.ignored) collect(child, child.nodeId, out);
      else if (DROPPED_ROLES.has(role)) continue;
      else if (role === 'StaticText') out.push({ kind: 'piece', text: axName(child), group });
      else if (role === 'LineBreak') out.push({ kind: 'piece', text: ' ', group });
      else if (isFoldable(child, role))
        collect(child, INLINE_ROLES.has(role) ? group : child.nodeId, out);
      else out.push(toElement(child, role));
    }
  };

  const toElement = (node: AXNode, role: string): OutlineElement => {
    const name = oneLine(axName(node));
    const focusable = axFlag(node, 'focusable') === true;
    const editable = typeof axProperty(node, 'editable') === 'string';
    const isField = FIELD_ROLES.has(role) || editable;
    let children = isField ? [] : childrenOf(node);
    if (name !== '' && textOf(children) === name) children = [];
    const rawValue = axValue(node);
    const value = rawValue === undefined || children.length > 0 ? undefined : oneLine(rawValue);
    const url = axProperty(node, 'url');
    return {
      kind: 'element',
      role,
      name,
      backendNodeId: node.backendDOMNodeId,
      states: statesOf(node, role),
      value: value === '' ? undefined : value,
      isField,
      valueHidden: false,
      url: role === 'link' && typeof url === 'string' ? url : undefined,
      wantsRef: node.backendDOMNodeId !== undefined && wantsRef(role, focusable, editable),
      ref: undefined,
      children,
    };
  };

  return childrenOf(root);
}

function isFoldable(node: AXNode, role: string): boolean {
  if (axFlag(node, 'focusable') === true || axProperty(node, 'editable') !== undefined)
    return false;
  if (INLINE_ROLES.has(role)) return true;
  return CONTAINER_ROLES.has(role) && oneLine(axName(node)) === '';
}

function mergeText(pieces: readonly (TextPiece | OutlineElement)[]): OutlineNode[] {
  const out: OutlineNode[] = [];
  let pending: TextPiece | undefined;
  const flush = (): void => {
    const text = pending === undefined ? '' : oneLine(pending.text);
    if (text !== '') out.push({ kind: 'text', text });
    pending = undefined;
  };
  for (const piece of pieces) {
    if (piece.kind === 'element') {
      flush();
      out.push(piece);
    } else if (pending !== undefined && pending.group === piece.group) {
      pending = { ...pending, text: pending.text + piece.text };
    } else {
      flush();
      pending = piece;
    }
  }
  flush();
  return out;
}

/** The text of children that are all text, to spot children that only repeat the name. */
function textOf(children: readonly OutlineNode[]): string | undefined {
  const texts: string[] = [];
  for (const child of children) {
    if (child.kind !== 'text') return undefined;
    texts.push(child.text);
  }
  return texts.length === 0 ? undefined : oneLine(texts.join(' '));
}

function statesOf(node: AXNode, role: string): string[] {
  const states: string[] = [];
  const checked = axFlag(node, 'checked');
  if (checked === true) states.push('checked');
  if (checked === 'mixed') states.push('checked=mixed');
  if (axFlag(node, 'disabled') === true) states.push('disabled');
  if (axFlag(node, 'expanded') === true) states.push('expanded');
  const level = axProperty(node, 'level');
  if (role === 'heading' && typeof level === 'number') states.push(`level=${level}`);
  const pressed = axFlag(node, 'pressed');
  if (pressed === true) states.push('pressed');
  if (pressed === 'mixed') states.push('pressed=mixed');
  if (axFlag(node, 'selected') === true) states.push('selected');
  return states;
}
