import { z } from 'zod';
import { defineTool } from './contract.js';

export const find = defineTool({
  name: 'browser_find',
  title: 'Find in snapshot',
  description: 'Outline lines matching text or a regex, with their parents.',
  input: z.object({
    text: z.string().optional().describe('Text (any case)'),
    regex: z.string().optional().describe('JavaScript regex'),
    limit: z.number().min(1).optional().describe('Most hits (50)'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

/** The find area's tools, in the order tools/list shows them. */
export const findContracts = [find] as const;
