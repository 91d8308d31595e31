/** Dialogs area: accept or dismiss the JavaScript dialog a page opened. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

export const handleDialog = defineTool({
  name: 'browser_handle_dialog',
  title: 'Handle dialog',
  description: 'Accept or dismiss the open JavaScript dialog.',
  input: z.object({
    accept: z.boolean().describe('Accept (true) or dismiss'),
    promptText: z.string().max(10_000).optional().describe('Text for a prompt'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  typedArgs: ['promptText'],
});

/** The dialogs area's tools, in the order tools/list shows them. */
export const dialogsContracts = [handleDialog] as const;
