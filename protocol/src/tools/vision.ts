/**
 * Vision area (group `vision`): the mouse at x,y for models that read screenshots. Coordinates
 * are CSS pixels of the viewport, as a screenshot of the viewport at scale 1 shows them.
 */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

const coordinate = (what: string) => z.number().min(-100_000).max(100_000).describe(what);
const button = z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (left)');

const input = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

export const mouseMoveXy = defineTool({
  name: 'browser_mouse_move_xy',
  title: 'Move mouse to x,y',
  description: 'Move the mouse to a point of the viewport (CSS px).',
  input: z.object({ x: coordinate('X'), y: coordinate('Y') }),
  annotations: { ...input, destructiveHint: false, idempotentHint: true },
  group: 'vision',
});

export const mouseClickXy = defineTool({
  name: 'browser_mouse_click_xy',
  title: 'Click at x,y',
  description: 'Click at a point of the viewport (CSS px) and wait for the page to settle.',
  input: z.object({
    x: coordinate('X'),
    y: coordinate('Y'),
    button,
    clickCount: z.number().int().min(1).max(2).optional().describe('2 double-clicks'),
  }),
  annotations: input,
  group: 'vision',
});

export const mouseDragXy = defineTool({
  name: 'browser_mouse_drag_xy',
  title: 'Drag from x,y to x,y',
  description: 'Press the left button at the start point, move to the end point, release.',
  input: z.object({
    startX: coordinate('Start X'),
    startY: coordinate('Start Y'),
    endX: coordinate('End X'),
    endY: coordinate('End Y'),
  }),
  annotations: input,
  group: 'vision',
});

export const mouseDown = defineTool({
  name: 'browser_mouse_down',
  inputAt: 'pointer',
  title: 'Mouse button down',
  description: 'Press a mouse button where the mouse is.',
  input: z.object({ button }),
  annotations: input,
  group: 'vision',
});

export const mouseUp = defineTool({
  name: 'browser_mouse_up',
  inputAt: 'pointer',
  title: 'Mouse button up',
  description: 'Release a mouse button where the mouse is.',
  input: z.object({ button }),
  annotations: input,
  group: 'vision',
});

export const mouseWheel = defineTool({
  name: 'browser_mouse_wheel',
  inputAt: 'pointer',
  title: 'Mouse wheel',
  description: 'Turn the mouse wheel where the mouse is, by deltaX/deltaY px.',
  input: z.object({
    deltaX: coordinate('Horizontal px').optional(),
    deltaY: coordinate('Vertical px').optional(),
  }),
  annotations: { ...input, destructiveHint: false },
  group: 'vision',
});

/** The vision area's tools, in the order tools/list shows them. */
export const visionContracts = [
  mouseMoveXy,
  mouseClickXy,
  mouseDragXy,
  mouseDown,
  mouseUp,
  mouseWheel,
] as const;
