import { z } from 'zod';
import { defineTool } from './contract.js';

export const tabs = defineTool({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description: "List, open, select or close this session's own tabs.",
  input: z.object({
    action: z.enum(['list', 'new', 'select', 'close']).describe('What to do'),
    index: z.number().min(0).optional().describe('For select and close (current tab)'),
    tabId: z.number().optional().describe('Chrome tab id, instead of index'),
    url: z.string().max(8192).optional().describe('URL to open, for new'),
    background: z.boolean().optional().describe('For new: do not focus it'),
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
  timeoutKind: 'navigation',
  takesProjectPath: true,
});

/** The tabs area's tools, in the order tools/list shows them. */
export const tabsContracts = [tabs] as const;
