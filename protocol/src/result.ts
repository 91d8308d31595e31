import { z } from 'zod';

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
});
export type ToolResult = z.infer<typeof toolResultSchema>;
export type ToolContent = ToolResult['content'][number];

export function textResult(text: string, structured?: Record<string, unknown>): ToolResult {
  return structured === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], structured };
}
