import { z } from 'zod';
import { findOutput } from './outputs.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

/** About 10k tokens: one snapshot should never crowd out the rest of an agent's context. */
export const DEFAULT_SNAPSHOT_MAX_CHARS = 40_000;

export const snapshot = defineTool({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description:
    'Accessibility outline of the page; [eN] after an element is its ref for element tools (ref "eN"), stable while it lives.',
  input: z.object({
    ref: z.string().optional().describe('Only this subtree'),
    depth: z.number().min(1).optional().describe('Levels to show'),
    maxChars: z.number().min(1000).optional().describe(`Cut here (${DEFAULT_SNAPSHOT_MAX_CHARS})`),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
});

export const find = defineTool({
  name: 'browser_find',
  title: 'Find in snapshot',
  description: 'Outline lines matching text or a regex, with their parents.',
  input: z.object({
    text: z.string().optional().describe('Text (any case)'),
    regex: z.string().optional().describe('JavaScript regex'),
    limit: z.number().min(1).optional().describe('Most hits (50)'),
  }),
  output: findOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
});

export const takeScreenshot = defineTool({
  name: 'browser_take_screenshot',
  title: 'Screenshot',
  description: 'Screenshot of the viewport, full page or a target element.',
  input: z.object({
    fullPage: z.boolean().optional().describe('Whole page'),
    ...elementTarget,
    type: z.enum(['png', 'jpeg']).optional().describe('Format (png)'),
    maxDimension: z.number().min(100).optional().describe('Longest side, px (1568)'),
    filename: z.string().optional().describe('Also save here (absolute, or a name in outputDir)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
});

export const getText = defineTool({
  name: 'browser_get_text',
  title: 'Page text as Markdown',
  description: 'The main content of the page (readability) as Markdown.',
  input: z.object({
    maxChars: z.number().min(100).optional().describe('Cut here (40000)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
});

export const getHtml = defineTool({
  name: 'browser_get_html',
  title: 'HTML',
  description: 'Outer HTML of the page, or of an element given as a target, size-capped.',
  input: z.object({
    ...elementTarget,
    maxChars: z.number().min(100).optional().describe('Cut here (50000)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  group: 'devtools',
});
