/** Input tools: click, hover, type, press a key, drag and scroll. */
import type { Protocol } from 'devtools-protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { armedWhile, performAction } from '../acting/action';
import { parseChord, pressChord } from '../acting/chords';
import { modifierBits, mouseClick, mouseMove } from '../acting/mouse';
import { echo, prepareField, prepareFieldStep, typeText } from '../acting/typing';
import { delay } from '../common/timing';
import { oneLine } from '../common/text';
import { clickPoint, clickPointStep, type Point } from '../elements/clickPoint';
import { elementCdp } from '../elements/elementCdp';
import { releaseElement } from '../elements/resolveRef';
import { resolveModelTarget } from '../elements/target';
import { withElement, withSteppedElement } from '../elements/withElement';
import { assertNoDialog } from '../recorders/dialogs';
import { rememberTypedSecret } from '../recorders/requestSecrets';

export const click: Handler<'browser_click'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return armedWhile(tab, (arming) =>
    // Where to click is looked at with the element's check: one round trip, not three (#26).
    withSteppedElement(tab, args, clickPointStep(), async (element) => {
      const point = await clickPoint(tab, element, element.firstValue);
      const button = args.button ?? 'left';
      const clicks = args.doubleClick === true ? 2 : 1;
      const verb = `${clicks === 2 ? 'Double-clicked' : 'Clicked'}${button === 'left' ? '' : ` (${button} button)`}`;
      const held = args.modifiers?.length ? ` holding ${args.modifiers.join('+')}` : '';
      return performAction(
        ctx,
        tab,
        `${verb} ${element.label}${held}.`,
        () =>
          mouseClick(tab.cdp, point, { clicks, button, modifiers: modifierBits(args.modifiers) }),
        arming,
      );
    }),
  );
};

export const hover: Handler<'browser_hover'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return withSteppedElement(tab, args, clickPointStep(), async (element) => {
    const point = await clickPoint(tab, element, element.firstValue);
    return performAction(ctx, tab, `Hovered over ${element.label}.`, async () => {
      await mouseMove(tab.cdp, point);
    });
  });
};

export const pressKey: Handler<'browser_press_key'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const chord = parseChord(args.key);
  return performAction(ctx, tab, `Pressed ${oneLine(args.key, 100)}.`, () =>
    pressChord(tab.cdp, chord),
  );
};

export const type: Handler<'browser_type'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const clear = args.clear !== false;
  return armedWhile(tab, (arming) =>
    // The field is focused and selected with the element's check: one round trip (#26).
    withSteppedElement(tab, args, prepareFieldStep(clear), async (element) => {
      const field = await prepareField(
        elementCdp(tab, element),
        element,
        clear,
        element.firstValue,
      );
      const submitted = args.submit === true ? ' and pressed Enter' : '';
      return performAction(
        ctx,
        tab,
        `Typed ${echo(args.text, field.password)} into ${element.label}${submitted}.`,
        async () => {
          if (field.password) rememberTypedSecret(tab.state, args.text);
          await typeText(tab.cdp, args.text, {
            slowly: args.slowly === true,
            clear,
            submit: args.submit === true,
          });
        },
        arming,
        // Text inserted at once: the page fires input events for it. Keys typed one by one and
        // an Enter (which may start a navigation after the text) are checked once taken.
        { checkWithInput: args.text !== '' && args.slowly !== true && args.submit !== true },
      );
    }),
  );
};

const DRAG_STEPS = 5;
/** Chrome reports an intercepted HTML5 drag shortly after the pointer moves with a button down. */
const DRAG_START_WAIT_MS = 100;

export const drag: Handler<'browser_drag'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cdp } = tab;
  assertNoDialog(tab);
  const from = await resolveModelTarget(tab, args.from);
  try {
    const to = await resolveModelTarget(tab, args.to);
    try {
      const start = await clickPoint(tab, from);
      const end = await clickPoint(tab, to);
      return await performAction(ctx, tab, `Dragged ${from.label} onto ${to.label}.`, async () => {
        // HTML5 drag and drop does not follow synthetic mouse events on its own; intercepting the
        // drag lets it be replayed as drag events at the drop point.
        let dragData: Protocol.Input.DragData | undefined;
        const off = cdp.on('Input.dragIntercepted', (e) => {
          dragData = e.data;
        });
        await cdp.send('Input.setInterceptDrags', { enabled: true });
        try {
          await mouseMove(cdp, start);
          await cdp.send('Input.dispatchMouseEvent', {
            type: 'mousePressed',
            x: start.x,
            y: start.y,
            button: 'left',
            buttons: 1,
            clickCount: 1,
          });
          for (let i = 1; i <= DRAG_STEPS; i += 1) {
            await cdp.send('Input.dispatchMouseEvent', {
              type: 'mouseMoved',
              ...between(start, end, i / DRAG_STEPS),
              button: 'left',
              buttons: 1,
            });
            if (i === 1) await delay(DRAG_START_WAIT_MS);
          }
          if (dragData !== undefined) {
            for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
              await cdp.send('Input.dispatchDragEvent', {
                type,
                x: end.x,
                y: end.y,
                data: dragData,
              });
            }
          }
          await cdp.send('Input.dispatchMouseEvent', {
            type: 'mouseReleased',
            x: end.x,
            y: end.y,
            button: 'left',
            buttons: 0,
            clickCount: 1,
          });
        } finally {
          off();
          await cdp.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
        }
      });
    } finally {
      releaseElement(tab, to);
    }
  } finally {
    releaseElement(tab, from);
  }
};

function between(a: Point, b: Point, t: number): Point {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}

export const scroll: Handler<'browser_scroll'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cdp } = tab;
  const deltaX = args.deltaX ?? 0;
  const deltaY = args.deltaY ?? 0;
  const hasTarget =
    args.ref !== undefined || args.selector !== undefined || args.role !== undefined;
  const by = `by ${deltaX}, ${deltaY} px`;
  // scrollBy rather than wheel events: wheel scrolling is smooth and asynchronous, so the page
  // would not yet be where the result says it is.
  if (!hasTarget) {
    assertNoDialog(tab);
    return performAction(ctx, tab, `Scrolled the page ${by}.`, async () => {
      await cdp.send('Runtime.evaluate', {
        expression: `window.scrollBy({ left: ${deltaX}, top: ${deltaY}, behavior: 'instant' })`,
      });
    });
  }
  return withElement(tab, args, async (element) => {
    if (deltaX === 0 && deltaY === 0) {
      return performAction(ctx, tab, `Scrolled ${element.label} into view.`, async () => {
        await elementCdp(tab, element).send('DOM.scrollIntoViewIfNeeded', {
          backendNodeId: element.entry.backendNodeId,
        });
      });
    }
    return performAction(ctx, tab, `Scrolled ${element.label} ${by}.`, async () => {
      await elementCdp(tab, element).send('Runtime.callFunctionOn', {
        objectId: element.objectId,
        functionDeclaration:
          'function (left, top) { this.scrollBy({ left, top, behavior: "instant" }); }',
        arguments: [{ value: deltaX }, { value: deltaY }],
      });
    });
  });
};

/** The input area's handlers, by tool name. */
export const inputHandlers = {
  browser_click: click,
  browser_type: type,
  browser_hover: hover,
  browser_drag: drag,
  browser_press_key: pressKey,
  browser_scroll: scroll,
} satisfies AreaHandlers;
