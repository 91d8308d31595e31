import { z } from 'zod';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

const TARGET_NOTE = 'Target: ref, role+name, or selector (exactly one).';

const modifiers = z
  .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
  .max(4)
  .optional()
  .describe('Keys held during the action');

export const click = defineTool({
  name: 'browser_click',
  title: 'Click',
  description: `Click an element, then wait for the page to settle. ${TARGET_NOTE}`,
  input: z.object({
    ...elementTarget,
    doubleClick: z.boolean().optional().describe('Double-click'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (left)'),
    modifiers,
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const type = defineTool({
  name: 'browser_type',
  title: 'Type text',
  description: `Type into an editable element, replacing its text unless clear is false. ${TARGET_NOTE}`,
  input: z.object({
    ...elementTarget,
    text: z.string().max(100_000).describe('Text to type'),
    submit: z.boolean().optional().describe('Press Enter after typing'),
    slowly: z.boolean().optional().describe('One key event per character'),
    clear: z.boolean().optional().describe('Replace existing text (default true)'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

const formField = z.object({
  ...elementTarget,
  value: z
    .union([z.string().max(100_000), z.boolean()])
    .describe('Text, option label/value, or true/false for checkbox and radio'),
});

export const fillForm = defineTool({
  name: 'browser_fill_form',
  title: 'Fill form',
  description:
    'Set many fields at once: text fields, checkboxes, radios and selects. Each field takes a target like browser_click.',
  input: z.object({
    fields: z.array(formField).min(1).max(100).describe('Fields to set, in order'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const selectOption = defineTool({
  name: 'browser_select_option',
  title: 'Select option',
  description: `Select options of a <select> by label or value. ${TARGET_NOTE}`,
  input: z.object({
    ...elementTarget,
    values: z.array(z.string().max(1000)).min(1).max(100).describe('Labels or values'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const hover = defineTool({
  name: 'browser_hover',
  title: 'Hover',
  description: `Move the mouse over an element. ${TARGET_NOTE}`,
  input: z.object({ ...elementTarget }),
  annotations: { openWorldHint: true },
});

export const drag = defineTool({
  name: 'browser_drag',
  title: 'Drag and drop',
  description: 'Drag one element onto another (mouse events and HTML5 drag and drop).',
  input: z.object({
    from: z.object(elementTarget).describe('Element to drag (ref, role+name or selector)'),
    to: z.object(elementTarget).describe('Element to drop on'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const pressKey = defineTool({
  name: 'browser_press_key',
  title: 'Press key',
  description:
    'Press a key or chord on the focused element, e.g. "Enter", "ArrowDown", "a", "Control+Shift+R".',
  input: z.object({
    key: z.string().min(1).max(100).describe('Key name or chord joined with +'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const scroll = defineTool({
  name: 'browser_scroll',
  title: 'Scroll',
  description:
    'Scroll an element into view (give a target), or scroll the page or a target by deltaX/deltaY px.',
  input: z.object({
    ...elementTarget,
    deltaX: z.number().min(-100_000).max(100_000).optional().describe('Horizontal px'),
    deltaY: z.number().min(-100_000).max(100_000).optional().describe('Vertical px'),
  }),
  annotations: { openWorldHint: true },
});

export const fileUpload = defineTool({
  name: 'browser_file_upload',
  title: 'Upload files',
  description: `Set the files of an <input type=file>. Paths are absolute and must exist. ${TARGET_NOTE}`,
  input: z.object({
    ...elementTarget,
    paths: z.array(z.string().min(1).max(4096)).max(20).describe('Absolute file paths; [] clears'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const handleDialog = defineTool({
  name: 'browser_handle_dialog',
  title: 'Handle dialog',
  description: 'Accept or dismiss the open alert, confirm, prompt or beforeunload dialog.',
  input: z.object({
    accept: z.boolean().describe('true accepts, false dismisses'),
    promptText: z.string().max(10_000).optional().describe('Text for a prompt'),
  }),
  annotations: { destructiveHint: true },
});
