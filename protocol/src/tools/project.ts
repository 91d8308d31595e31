import { z } from '../zod.js';

/**
 * `projectPath`: in launch mode, when the client gave no roots and the server no --project, the
 * tools whose contract says `takesProjectPath` take it; it picks the project's own browser
 * profile on the first call. The MCP server handles it and never forwards it, so the extension's
 * contracts do not carry it.
 */
export const projectPathSchema = z
  .string()
  .max(4096)
  .optional()
  .describe('Absolute project dir; first call only. Picks its browser profile');
