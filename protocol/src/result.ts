import { z } from 'zod';

/** What every tool returns: text and images, mapped one-to-one onto MCP content parts. */
export const toolResultSchema = z.object({
  content: z.array(
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({
        type: z.literal('image'),
        data: z.string(),
        mimeType: z.enum(['image/png', 'image/jpeg']),
      }),
    ]),
  ),
});
export type ToolResult = z.infer<typeof toolResultSchema>;
export type ToolContent = ToolResult['content'][number];

export function textResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }] };
}
