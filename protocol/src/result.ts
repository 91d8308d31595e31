import { z } from './zod.js';
import { consoleEventsSchema } from './tools/console.js';
import { pageHtmlSchema } from './tools/content.js';
import { storageStateSchema } from './tools/storage.js';

/**
 * Bytes a tool hands to the MCP server to save as a file (serverStep `saveResultBytes`): a PDF,
 * a response body. The extension has no file system; the server writes them to a new file in the
 * output directory and names it in a note.
 */
export const resultFileSchema = z.object({
  /** The file's bytes, base64. */
  data: z.string(),
  /** File name extension without the dot, e.g. pdf. */
  ext: z.string().regex(/^[a-z0-9]{1,10}$/),
  /** Stem of the generated name when the agent gave none: `<prefix>-<time>.<ext>`. */
  prefix: z.string().regex(/^[a-z0-9-]{1,30}$/),
  /** What was saved, for the line that names the file ("Page saved as PDF"). */
  label: z.string().max(200),
});
export type ResultFile = z.infer<typeof resultFileSchema>;

/**
 * What the extension hands to the MCP server beside the agent's text: typed fields, never text
 * parts, so no path that forgets a step can show them to the agent raw. The server's layers take
 * each one and the rendered MCP result carries none of them.
 */
export const serverDataSchema = z.object({
  /** Files to save (saveResultBytes). */
  files: z.array(resultFileSchema).max(10).optional(),
  /** browser_storage_state's state, for the file the server writes (saveStorageState). */
  storageState: storageStateSchema.optional(),
  /** browser_get_text's page, which the server turns into Markdown (pageToMarkdown). */
  pageHtml: pageHtmlSchema.optional(),
  /** The console entries new since the last response (outputFiles/consoleLog.ts). */
  consoleEvents: z.array(consoleEventsSchema).max(100).optional(),
});
export type ServerData = z.infer<typeof serverDataSchema>;

/**
 * What every tool returns: text and images, mapped one-to-one onto MCP content parts, and for a
 * tool whose contract declares an `output` schema, the same facts as data (MCP structuredContent).
 */
export const toolResultSchema = z.object({
  content: z.array(
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({
        type: z.literal('image'),
        data: z.string(),
        mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
      }),
    ]),
  ),
  structured: z.record(z.string(), z.unknown()).optional(),
  /** For the MCP server only (see serverDataSchema). */
  serverData: serverDataSchema.optional(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;
export type ToolContent = ToolResult['content'][number];

export function textResult(text: string, structured?: Record<string, unknown>): ToolResult {
  return structured === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], structured };
}

/** Merges server data of several results (a batch's steps, a handler's and a section step's). */
export function mergeServerData(
  a: ServerData | undefined,
  b: ServerData | undefined,
): ServerData | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const files = [...(a.files ?? []), ...(b.files ?? [])];
  const consoleEvents = [...(a.consoleEvents ?? []), ...(b.consoleEvents ?? [])];
  const storageState = b.storageState ?? a.storageState;
  const pageHtml = b.pageHtml ?? a.pageHtml;
  return {
    ...(files.length > 0 ? { files } : {}),
    ...(consoleEvents.length > 0 ? { consoleEvents } : {}),
    ...(storageState === undefined ? {} : { storageState }),
    ...(pageHtml === undefined ? {} : { pageHtml }),
  };
}
