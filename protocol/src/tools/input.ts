/** Input area: click, type, hover, drag, press a key, scroll. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

const modifiers = z
  .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
  .max(4)
  .optional()
  .describe('Held keys');

export const click = defineTool({
  name: 'browser_click',
  askVerb: 'click',
  title: 'Click',
  description: 'Click an element and wait for the page to settle.',
  input: z.object({
    ...elementTarget,
    doubleClick: z.boolean().optional().describe('Double-click'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (left)'),
    modifiers,
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
});

export const type = defineTool({
  name: 'browser_type',
  askVerb: 'type',
  title: 'Type text',
  description: 'Type into an editable element.',
  input: z.object({
    ...elementTarget,
    text: z.string().max(100_000).describe('Text to type'),
    submit: z.boolean().optional().describe('Press Enter after typing'),
    slowly: z.boolean().optional().describe('Key events per character'),
    clear: z.boolean().optional().describe('Replace the text (true)'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  secretArgs: ['text'],
});

export const hover = defineTool({
  name: 'browser_hover',
  askVerb: 'hover over',
  title: 'Hover',
  description: 'Move the mouse over an element.',
  input: z.object({ ...elementTarget }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
});

const dragEnd = z.object(elementTarget);

export const drag = defineTool({
  name: 'browser_drag',
  askVerb: 'drag',
  title: 'Drag and drop',
  description: 'Drag one element onto another.',
  input: z.object({
    from: dragEnd.describe('Element to drag'),
    to: dragEnd.describe('Element to drop on'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
});

export const pressKey = defineTool({
  name: 'browser_press_key',
  askVerb: 'press',
  inputAt: 'focus',
  title: 'Press key',
  description: 'Press a key or chord, e.g. "Enter", "ArrowDown", "Control+Shift+R".',
  input: z.object({
    key: z.string().min(1).max(100).describe('Key or chord'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
});

/** ±100,000 px, checked but not listed: no agent scrolls that far, and the bounds cost tokens. */
const scrollDelta = () =>
  z
    .number()
    .refine((n) => Math.abs(n) <= 100_000, { error: 'expected a number from -100000 to 100000' })
    .optional();

export const scroll = defineTool({
  name: 'browser_scroll',
  title: 'Scroll',
  description: 'Scroll a target into view, or the page or a target by deltaX/deltaY px.',
  input: z.object({
    ...elementTarget,
    deltaX: scrollDelta().describe('Horizontal px'),
    deltaY: scrollDelta().describe('Vertical px'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
});

/** The input area's tools, in the order tools/list shows them. */
export const inputContracts = [click, type, hover, drag, pressKey, scroll] as const;
