/**
 * The mouse at viewport coordinates (the vision tools): where the pointer is and which buttons
 * are held are kept per tab, so a press, a release or a wheel turn happens where the last move
 * left the mouse, as a real mouse's would.
 */
import type { CdpClient, CdpParams } from '../cdp';
import type { Point, Pointer, TabHandle } from '../tabStates';
import type { Button } from './mouse';
import { delay } from '../common/timing';

const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4 };

function pointerOf(tab: TabHandle): Pointer {
  tab.state.pointer ??= { at: { x: 0, y: 0 }, buttons: 0 };
  return tab.state.pointer;
}

/** Where the pointer is now (0,0 before the first move). */
export function pointerAt(tab: TabHandle): Point {
  return { ...pointerOf(tab).at };
}

/** Moves the pointer to `to` in `steps` moves, holding whatever buttons are down. */
export async function pointerMove(tab: TabHandle, to: Point, steps = 1): Promise<void> {
  const pointer = pointerOf(tab);
  const from = pointer.at;
  for (let i = 1; i <= steps; i += 1) {
    const t = i / steps;
    const x = from.x + (to.x - from.x) * t;
    const y = from.y + (to.y - from.y) * t;
    await send(tab.cdp, { type: 'mouseMoved', x, y, buttons: pointer.buttons, ...held(pointer) });
    pointer.at = { x, y };
  }
}

/** The button the move reports: the first one held, as Chrome's own events carry. */
function held(pointer: Pointer): { button?: Button } {
  for (const [button, bit] of Object.entries(BUTTON_BITS) as [Button, number][])
    if ((pointer.buttons & bit) !== 0) return { button };
  return {};
}

export async function pointerDown(tab: TabHandle, button: Button, clickCount = 1): Promise<void> {
  const pointer = pointerOf(tab);
  pointer.buttons |= BUTTON_BITS[button];
  const { x, y } = pointer.at;
  await send(tab.cdp, {
    type: 'mousePressed',
    x,
    y,
    button,
    buttons: pointer.buttons,
    clickCount,
  });
}

export async function pointerUp(tab: TabHandle, button: Button, clickCount = 1): Promise<void> {
  const pointer = pointerOf(tab);
  pointer.buttons &= ~BUTTON_BITS[button];
  const { x, y } = pointer.at;
  await send(tab.cdp, {
    type: 'mouseReleased',
    x,
    y,
    button,
    buttons: pointer.buttons,
    clickCount,
  });
}

/**
 * How long a wheel turn waits for the page's next frames at most: an agent's tab is kept drawn
 * (keepRunning.ts), so they come within a few ms; the cap is for a page that hangs its frames.
 */
const WHEEL_FRAMES_CAP_MS = 200;

/**
 * Chrome answers a wheel turn once its compositor has it; a page whose wheel listeners are
 * passive (the default on window and document) gets the DOM event with its next frame, so a call
 * right after the turn could find it not yet delivered (e2e pw-vision, CI of session 20). The
 * turn therefore waits for two frames of the page, capped (a page that replaces
 * requestAnimationFrame costs the cap, nothing more).
 */
export async function pointerWheel(tab: TabHandle, deltaX: number, deltaY: number): Promise<void> {
  const pointer = pointerOf(tab);
  const { x, y } = pointer.at;
  await send(tab.cdp, { type: 'mouseWheel', x, y, deltaX, deltaY, buttons: pointer.buttons });
  const frames = tab.cdp
    .send('Runtime.evaluate', {
      expression: 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
      awaitPromise: true,
    })
    .catch(() => undefined);
  await Promise.race([frames, delay(WHEEL_FRAMES_CAP_MS)]);
}

function send(cdp: CdpClient, params: CdpParams<'Input.dispatchMouseEvent'>): Promise<unknown> {
  return cdp.send('Input.dispatchMouseEvent', params);
}
