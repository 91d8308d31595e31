/** Tabs area: list, open, select and close the session's tabs. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const tabsOutput = z.object({
  tabs: z.array(
    z.object({
      index: z.number(),
      tabId: z.number(),
      url: z.string(),
      title: z.string(),
      current: z.boolean(),
    }),
  ),
});
export type TabsOutput = z.infer<typeof tabsOutput>;

export const tabs = defineTool({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description: "List, open, select or close this session's own tabs.",
  input: z.object({
    action: z.enum(['list', 'new', 'select', 'close']).describe('What to do'),
    index: z.number().min(0).optional().describe('For select/close (current tab)'),
    tabId: z.number().optional().describe('Instead of index'),
    url: z.string().max(8192).optional().describe('URL to open, for new'),
    background: z.boolean().optional().describe('For new: do not focus it'),
  }),
  output: tabsOutput,
  blockedByDialog: false,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  timeoutKind: 'navigation',
  takesProjectPath: true,
  // Listing changes nothing: asking the person before it (ask mode) only got in the way.
  readsOnlyWhen: (args) => args.action === 'list',
});

/** The tabs area's tools, in the order tools/list shows them. */
export const tabsContracts = [tabs] as const;
