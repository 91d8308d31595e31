import { z } from 'zod';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

/** About 10k tokens: one snapshot should never crowd out the rest of an agent's context. */
export const DEFAULT_SNAPSHOT_MAX_CHARS = 40_000;

export const snapshot = defineTool({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description:
    'Accessibility outline of the page with [ref=eN] handles for the element tools. Refs stay the same for the same element.',
  input: z.object({
    ref: z.string().min(1).max(40).optional().describe('Only the subtree of this ref'),
    depth: z.number().int().min(1).max(100).optional().describe('Levels to show'),
    maxChars: z
      .number()
      .int()
      .min(1000)
      .max(500_000)
      .optional()
      .describe(`Cut the outline here (${DEFAULT_SNAPSHOT_MAX_CHARS})`),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

export const find = defineTool({
  name: 'browser_find',
  title: 'Find in snapshot',
  description: 'Lines of the page outline matching text or a regex, each with its path of parents.',
  input: z.object({
    text: z.string().min(1).max(1000).optional().describe('Text to find (case-insensitive)'),
    regex: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe('JavaScript regex, e.g. "^Item \\\\d+$"'),
    limit: z.number().int().min(1).max(500).optional().describe('Most hits to return (50)'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

export const takeScreenshot = defineTool({
  name: 'browser_take_screenshot',
  title: 'Screenshot',
  description:
    'Screenshot of the viewport, the full page, or an element given as a target. To act, use browser_snapshot.',
  input: z.object({
    fullPage: z.boolean().optional().describe('Whole scrollable page'),
    ...elementTarget,
    type: z.enum(['png', 'jpeg']).optional().describe('Format (png)'),
    maxDimension: z
      .number()
      .int()
      .min(100)
      .max(8000)
      .optional()
      .describe('Downscale so no side exceeds this (1568 px)'),
    filename: z.string().min(1).max(4096).optional().describe('Also save to this absolute path'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

export const getText = defineTool({
  name: 'browser_get_text',
  title: 'Page text as Markdown',
  description: 'The main content of the page (readability) as Markdown.',
  input: z.object({
    maxChars: z.number().int().min(100).max(500_000).optional().describe('Cut here (40000)'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

export const getHtml = defineTool({
  name: 'browser_get_html',
  title: 'HTML',
  description: 'Outer HTML of the page, or of an element given as a target, size-capped.',
  input: z.object({
    ...elementTarget,
    maxChars: z.number().int().min(100).max(1_000_000).optional().describe('Cut here (50000)'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  group: 'devtools',
});
