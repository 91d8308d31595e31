import { z } from 'zod';
import { defineTool } from './contract.js';

export const snapshot = defineTool({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description:
    'Accessibility outline of the current page (roles, names, states, values) with [ref=eN] handles for the element tools. Refs stay the same for the same element across snapshots.',
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

export const takeScreenshot = defineTool({
  name: 'browser_take_screenshot',
  title: 'Screenshot',
  description:
    'Screenshot of the current tab as an image. Use browser_snapshot to find elements to act on; screenshots are for looking.',
  input: z.object({
    fullPage: z
      .boolean()
      .optional()
      .describe('Capture the whole scrollable page, not just the viewport'),
    type: z.enum(['png', 'jpeg']).optional().describe('Image format, png by default'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});
