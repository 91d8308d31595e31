/** Content area: the page's HTML, its text as Markdown, and screenshots. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

/**
 * browser_get_text is split across the bridge: the service worker has no DOM parser, so the
 * extension sends the page's HTML (ToolResult `serverData.pageHtml`) and the MCP server turns it
 * into Markdown before the agent sees it.
 */
export const pageHtmlSchema = z.object({
  url: z.string(),
  title: z.string(),
  html: z.string(),
  /** The HTML was cut at the extension's size cap. */
  truncated: z.boolean(),
});
export type PageHtml = z.infer<typeof pageHtmlSchema>;

export const takeScreenshot = defineTool({
  name: 'browser_take_screenshot',
  title: 'Screenshot',
  description: 'Screenshot of the viewport, full page or a target element.',
  input: z.object({
    fullPage: z.boolean().optional().describe('Whole page'),
    ...elementTarget,
    type: z.enum(['png', 'jpeg', 'webp']).optional().describe('Format (png)'),
    maxDimension: z.number().min(100).optional().describe('Longest side, px (1568)'),
    scale: z.enum(['css', 'device']).optional().describe('Pixels (css)'),
    filename: z.string().optional().describe('Also save to this file (a bare name: in outputDir)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  serverStep: 'saveScreenshot',
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
  serverStep: 'pageToMarkdown',
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

/** The content area's tools, in the order tools/list shows them. */
export const contentContracts = [takeScreenshot, getText, getHtml] as const;
