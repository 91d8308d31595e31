/**
 * The outline the snapshot shows, as the worker holds it: the page model's answer for each frame
 * (page/wire.ts), with each element's address in its frame's world and, once the snapshot is
 * taken, its ref.
 */
import type { WireNode, WorldAddress } from '../page/wire';
import { oneLine } from '../common/text';

export interface OutlineText {
  kind: 'text';
  text: string;
}

export interface OutlineElement {
  kind: 'element';
  role: string;
  name: string;
  /** Where the element lives, when it can be acted on (it gets a ref). */
  world: WorldAddress | undefined;
  localId: number | undefined;
  /** Its cursor is a pointer or it has a click handler (a custom control). */
  pointer: boolean;
  /** Shown in brackets after the name, in this order: checked, disabled, expanded, level, pressed, selected; active (focused) is written after the ref. */
  states: string[];
  value: string | undefined;
  /** A secret field (password, card number, one-time code) that has a value, never sent. */
  valueHidden: boolean;
  url: string | undefined;
  /** It owns a child frame, hung under it by outline/frames.ts. */
  framed: boolean;
  /** Filled in by the ref table when the snapshot is taken. */
  ref: string | undefined;
  /** [x, y, width, height] in CSS px of the tab's viewport, when the snapshot asked for boxes. */
  box?: readonly number[];
  children: OutlineNode[];
}

export type OutlineNode = OutlineText | OutlineElement;

/** Identity of an element across snapshots: its world and its id there. */
export function elementKey(world: WorldAddress, localId: number): string {
  return `${world.sessionId ?? ''}/${world.frameId}/${world.contextId}:${localId}`;
}

/** A text line longer than this is cut, and the cut says how much is left and where it is. */
const MAX_TEXT_CHARS = 2_000;

/** One safe line of page text, cut at MAX_TEXT_CHARS with a mark (never silently). */
function textLine(raw: string): string {
  const flat = oneLine(raw, Number.MAX_SAFE_INTEGER);
  if (flat.length <= MAX_TEXT_CHARS) return flat;
  return `${flat.slice(0, MAX_TEXT_CHARS)}… [+${flat.length - MAX_TEXT_CHARS} chars; browser_get_text shows all]`;
}

/** Page text is made safe here (one line, no control or bidi characters, capped); names when shown. */
export function fromWire(nodes: readonly WireNode[], world: WorldAddress): OutlineNode[] {
  return nodes.map((node): OutlineNode => {
    if (typeof node === 'string') return { kind: 'text', text: textLine(node) };
    return {
      kind: 'element',
      role: node.r,
      name: node.n ?? '',
      world: node.i === undefined ? undefined : world,
      localId: node.i,
      pointer: node.p === 1,
      states: node.s ?? [],
      value: node.v === undefined ? undefined : oneLine(node.v),
      valueHidden: node.h === 1,
      url: node.u,
      framed: node.f === 1,
      ref: undefined,
      children: fromWire(node.c ?? [], world),
    };
  });
}
