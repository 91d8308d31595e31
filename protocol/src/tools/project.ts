import { z } from 'zod';

/**
 * The tools that may be the first to open the browser. In launch mode, when the client gave no
 * roots and the server no --project, they take an optional `projectPath` that picks the
 * project's own browser profile on the first call. The MCP server handles it and never forwards
 * it, so the extension's contracts do not carry it.
 */
export const PROJECT_PATH_TOOLS = [
  'browser_navigate',
  'browser_snapshot',
  'browser_tabs',
  'browser_wait_for',
  'browser_resize',
  'browser_close',
] as const;

export const projectPathSchema = z
  .string()
  .max(4096)
  .optional()
  .describe('Absolute project dir; first call only. Picks its browser profile');

export function takesProjectPath(name: string): boolean {
  return (PROJECT_PATH_TOOLS as readonly string[]).includes(name);
}
