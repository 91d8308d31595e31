/**
 * Where to click an element: the centre of its first visible box, clipped to the viewport, and
 * only if a hit test at that point lands on the element itself (or a label of it). A point
 * covered by an overlay would click the overlay, which is a different element.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { Point, TabHandle } from '../tabStates';
import { elementCdp } from './elementCdp';
import { Hint } from '../common/hints';
import { frameOffset } from './frameOffset';
import type { ElementHandle, FirstStep } from './resolveRef';
import { oneLine } from '../common/text';

export type { Point } from '../tabStates';

// Runs on the element. Gets quads in top-level viewport CSS px (8 numbers each) and returns a
// top-level point, or why there is none. Inside a same-origin iframe the hit test runs in frame
// coordinates; when a frame above is cross-origin its offset is unknowable and the box centre
// is used unchecked.
const HIT_TEST_FUNCTION = `function (quads) {
  // Ancestry across shadow roots, open or closed.
  const isWithin = (node, ancestor) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === ancestor) return true;
    return false;
  };
  let ox = 0, oy = 0;
  for (let w = window; w !== w.top; w = w.parent) {
    const owner = w.frameElement;
    if (!owner) return { unchecked: true };
    const box = owner.getBoundingClientRect();
    const style = owner.ownerDocument.defaultView.getComputedStyle(owner);
    ox += box.left + owner.clientLeft + parseFloat(style.paddingLeft);
    oy += box.top + owner.clientTop + parseFloat(style.paddingTop);
  }
  const vw = window.innerWidth, vh = window.innerHeight;
  for (const q of quads) {
    const xs = [q[0], q[2], q[4], q[6]].map((v) => v - ox), ys = [q[1], q[3], q[5], q[7]].map((v) => v - oy);
    const left = Math.max(0, Math.min(...xs)), right = Math.min(vw, Math.max(...xs));
    const top = Math.max(0, Math.min(...ys)), bottom = Math.min(vh, Math.max(...ys));
    if (right - left < 1 || bottom - top < 1) continue;
    const x = (left + right) / 2, y = (top + bottom) / 2;
    const at = { x: x + ox, y: y + oy };
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    if (!hit) continue;
    if (isWithin(hit, this)) return at;
    // An ancestor (a button around a pointer-events:none icon) receives the same click.
    if (hit !== document.body && hit !== document.documentElement && isWithin(this, hit)) return at;
    const label = hit.closest('label');
    if (label && label.control === this) return at;
    return { blockedBy: hit.localName + (hit.id ? '#' + hit.id : '') };
  }
  return { offscreen: true };
}`;

// Runs on the element with its check (clickPointStep): the hit test on its boxes as the page
// gives them (getClientRects, in the viewport's CSS px: the top-level one in the main frame; a
// mobile viewport's zoomed-out page too, handlers.chromium.test.ts). In a frame, with the visual
// viewport moved off the layout one (a pinch zoom), or when the point is not a clean hit, it
// answers null and framePoint looks the CDP way (quads, scroll into view, the hit test again).
const CLICK_POINT_FUNCTION = `function () {
  const vv = window.visualViewport;
  if (window !== window.top || (vv && (vv.offsetLeft !== 0 || vv.offsetTop !== 0))) return null;
  const quads = Array.from(this.getClientRects(), (r) => [r.left, r.top, r.right, r.top, r.right, r.bottom, r.left, r.bottom]);
  return quads.length === 0 ? null : (${HIT_TEST_FUNCTION}).call(this, quads);
}`;

/** The click point's page-side look, sent with the element's check (resolveModelEntry): #26. */
export function clickPointStep(): FirstStep {
  return { fn: CLICK_POINT_FUNCTION, args: [] };
}

interface HitTest {
  x?: number;
  y?: number;
  blockedBy?: string;
  unchecked?: boolean;
}

/**
 * Where to click the element, in the tab's viewport. `first` is what clickPointStep answered
 * when it went out with the element's check: a clean hit there is the point, with no round trip.
 */
export async function clickPoint(
  tab: TabHandle,
  element: ElementHandle,
  first?: unknown,
): Promise<Point> {
  const shown = first === undefined ? undefined : asHitTest(first);
  if (shown?.x !== undefined && shown.y !== undefined && element.entry.sessionId === undefined)
    return { x: shown.x, y: shown.y };
  const point = await framePoint(tab, element);
  const sessionId = element.entry.sessionId;
  if (sessionId === undefined) return point;
  // Coordinates in an out-of-process frame are its own; the tab's input needs the tab's.
  const offset = await frameOffset(tab, sessionId);
  return { x: point.x + offset.x, y: point.y + offset.y };
}

/**
 * An element the page shows where it is is clicked there: two round trips (its boxes, the hit
 * test). Only one that is off screen, covered, or in a frame whose place cannot be checked is
 * scrolled into view first and looked at again (#26: the scroll's round trip came first on
 * every click).
 */
async function framePoint(tab: TabHandle, element: ElementHandle): Promise<Point> {
  const cdp = elementCdp(tab, element);
  const asShown = await hitTest(cdp, element);
  if (asShown.hit.x !== undefined && asShown.hit.y !== undefined)
    return { x: asShown.hit.x, y: asShown.hit.y };
  // Fails for elements without layout; getContentQuads then says so.
  await cdp
    .send('DOM.scrollIntoViewIfNeeded', { objectId: element.objectId })
    .catch(() => undefined);
  const { quads, hit } = await hitTest(cdp, element);
  const notVisible = (why: string): BridgeError =>
    new BridgeError(ErrorCode.NOT_VISIBLE, `${element.label} ${why}.`, Hint.notVisible);
  if (quads.length === 0) throw notVisible('has no visible box');
  if (hit.x !== undefined && hit.y !== undefined) return { x: hit.x, y: hit.y };
  if (hit.unchecked === true) return centreOf(quads[0]);
  if (hit.blockedBy !== undefined)
    throw notVisible(`is covered by another element (<${hit.blockedBy}>)`);
  throw notVisible('is outside the viewport');
}

/** The element's boxes where it is now, and the point a click there would land on it. */
async function hitTest(
  cdp: ReturnType<typeof elementCdp>,
  element: ElementHandle,
): Promise<{ quads: number[][]; hit: HitTest }> {
  const quads = await cdp
    .send('DOM.getContentQuads', { objectId: element.objectId })
    .then((r) => r.quads)
    .catch(() => []);
  if (quads.length === 0) return { quads, hit: {} };
  const { result, exceptionDetails } = await cdp.send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: HIT_TEST_FUNCTION,
    arguments: [{ value: quads }],
    returnByValue: true,
  });
  return { quads, hit: asHitTest(exceptionDetails === undefined ? result.value : undefined) };
}

function asHitTest(value: unknown): HitTest {
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  return {
    x: typeof record.x === 'number' ? record.x : undefined,
    y: typeof record.y === 'number' ? record.y : undefined,
    // The id is page text: kept short and on one line.
    blockedBy: typeof record.blockedBy === 'string' ? oneLine(record.blockedBy, 60) : undefined,
    unchecked: record.unchecked === true,
  };
}

function centreOf(quad: readonly number[] | undefined): Point {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, x3 = 0, y3 = 0, x4 = 0, y4 = 0] = quad ?? [];
  return { x: (x1 + x2 + x3 + x4) / 4, y: (y1 + y2 + y3 + y4) / 4 };
}
