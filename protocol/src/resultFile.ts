/**
 * Bytes a tool hands to the MCP server to save as a file (serverStep `saveResultBytes`): a PDF,
 * a response body. The extension has no file system; it sends the bytes in one text part that
 * starts with this marker, and the server writes them to a new file in the output directory and
 * puts the path in the part's place.
 */
import { z } from 'zod';

export const RESULT_FILE_MARKER = '@@browser-agent/result-file@@\n';

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

export function resultFilePart(file: ResultFile): string {
  return `${RESULT_FILE_MARKER}${JSON.stringify(file)}`;
}
