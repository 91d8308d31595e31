/** Vision area's handlers (group `vision`): the mouse at viewport coordinates (CSS px). */
import type { AreaHandlers, Handler } from '../handlerContext';
import { performAction } from '../acting/action';
import { pointerDown, pointerMove, pointerUp, pointerWheel } from '../acting/pointer';

/** Moves of a drag: enough for pages that track the pointer between press and release. */
const DRAG_STEPS = 5;

const at = (x: number, y: number): string => `(${x}, ${y})`;

export const mouseMoveXy: Handler<'browser_mouse_move_xy'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return performAction(ctx, tab, `Moved the mouse to ${at(args.x, args.y)}.`, () =>
    pointerMove(tab, { x: args.x, y: args.y }),
  );
};

export const mouseClickXy: Handler<'browser_mouse_click_xy'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const button = args.button ?? 'left';
  const clicks = args.clickCount ?? 1;
  const verb = clicks === 2 ? 'Double-clicked' : 'Clicked';
  const which = button === 'left' ? '' : ` (${button} button)`;
  return performAction(ctx, tab, `${verb} at ${at(args.x, args.y)}${which}.`, async () => {
    await pointerMove(tab, { x: args.x, y: args.y });
    // A double click is two presses, the second with clickCount 2: pages see click, click, dblclick.
    for (let count = 1; count <= clicks; count += 1) {
      await pointerDown(tab, button, count);
      await pointerUp(tab, button, count);
    }
  });
};

export const mouseDragXy: Handler<'browser_mouse_drag_xy'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const from = at(args.startX, args.startY);
  const to = at(args.endX, args.endY);
  return performAction(ctx, tab, `Dragged from ${from} to ${to}.`, async () => {
    await pointerMove(tab, { x: args.startX, y: args.startY });
    await pointerDown(tab, 'left');
    try {
      await pointerMove(tab, { x: args.endX, y: args.endY }, DRAG_STEPS);
    } finally {
      await pointerUp(tab, 'left');
    }
  });
};

export const mouseDown: Handler<'browser_mouse_down'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const button = args.button ?? 'left';
  return performAction(ctx, tab, `Pressed the ${button} mouse button.`, () =>
    pointerDown(tab, button),
  );
};

export const mouseUp: Handler<'browser_mouse_up'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const button = args.button ?? 'left';
  return performAction(ctx, tab, `Released the ${button} mouse button.`, () =>
    pointerUp(tab, button),
  );
};

export const mouseWheel: Handler<'browser_mouse_wheel'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const deltaX = args.deltaX ?? 0;
  const deltaY = args.deltaY ?? 0;
  return performAction(ctx, tab, `Turned the mouse wheel by ${at(deltaX, deltaY)} px.`, () =>
    pointerWheel(tab, deltaX, deltaY),
  );
};

/** The vision area's handlers, by tool name. */
export const visionHandlers = {
  browser_mouse_move_xy: mouseMoveXy,
  browser_mouse_click_xy: mouseClickXy,
  browser_mouse_drag_xy: mouseDragXy,
  browser_mouse_down: mouseDown,
  browser_mouse_up: mouseUp,
  browser_mouse_wheel: mouseWheel,
} satisfies AreaHandlers;
