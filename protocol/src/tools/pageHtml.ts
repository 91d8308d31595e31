import { z } from 'zod';

/**
 * browser_get_text is split across the bridge: the service worker has no DOM parser, so the
 * extension sends the page's HTML in one text part that starts with this marker, and the MCP
 * server turns it into Markdown before the agent sees it.
 */
export const PAGE_HTML_MARKER = '@@browser-agent/page-html@@\n';

export const pageHtmlSchema = z.object({
  url: z.string(),
  title: z.string(),
  html: z.string(),
  /** The HTML was cut at the extension's size cap. */
  truncated: z.boolean(),
});
export type PageHtml = z.infer<typeof pageHtmlSchema>;
