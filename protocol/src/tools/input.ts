import { z } from 'zod';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

export const click = defineTool({
  name: 'browser_click',
  title: 'Click',
  description:
    'Click an element by its ref from browser_snapshot, then wait for the page to settle.',
  input: z.object({
    ...elementTarget,
    doubleClick: z.boolean().optional().describe('Double-click instead of a single click'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});

export const type = defineTool({
  name: 'browser_type',
  title: 'Type text',
  description:
    'Replace the text of an editable element (by ref from browser_snapshot) with the given text.',
  input: z.object({
    ...elementTarget,
    text: z.string().max(100_000).describe('Text to type'),
    submit: z.boolean().optional().describe('Press Enter after typing'),
    slowly: z
      .boolean()
      .optional()
      .describe('Type one character at a time, firing key events, for pages that listen to keys'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});
