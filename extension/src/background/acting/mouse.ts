import type { CdpClient } from '../cdp';
import type { Point } from '../tabStates';
import { MODIFIER_BITS, type Modifier } from './keyboard';

export type Button = 'left' | 'right' | 'middle';

const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4 };
export function modifierBits(modifiers: readonly Modifier[] = []): number {
  return modifiers.reduce((bits, m) => bits | MODIFIER_BITS[m], 0);
}

export function mouseMove(cdp: CdpClient, { x, y }: Point, modifiers = 0): Promise<unknown> {
  return cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers });
}

export async function mouseClick(
  cdp: CdpClient,
  point: Point,
  options: { clicks: 1 | 2; button: Button; modifiers: number },
): Promise<void> {
  const { x, y } = point;
  const { button, modifiers } = options;
  // Sent together: Chrome's input router dispatches them in order, each after the page handled
  // the one before, so only the round trips through chrome.debugger are saved (#26).
  const events: Promise<unknown>[] = [mouseMove(cdp, point, modifiers)];
  // A double click is two presses, the second with clickCount 2: pages see click, click, dblclick.
  for (let clickCount = 1; clickCount <= options.clicks; clickCount += 1) {
    const common = { x, y, button, clickCount, modifiers };
    events.push(
      cdp.send('Input.dispatchMouseEvent', {
        type: 'mousePressed',
        buttons: BUTTON_BITS[button],
        ...common,
      }),
      cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...common }),
    );
  }
  await Promise.all(events);
}
