import { z } from 'zod';
import { defineTool } from './contract.js';

export const tabs = defineTool({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description:
    "List, open, select or close this session's tabs. Other sessions' tabs and the user's own tabs are never listed.",
  input: z.object({
    action: z.enum(['list', 'new', 'select', 'close']).describe('What to do'),
    index: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Tab index from the list, for select and close (close defaults to the current tab)',
      ),
    url: z.string().max(8192).optional().describe('URL to open, for new'),
    background: z
      .boolean()
      .optional()
      .describe('For new: open without focusing it or making it current'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
});
