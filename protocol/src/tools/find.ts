/** Find area: the elements of the tab's outline that match a text. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const findOutput = z.object({
  generation: z.number(),
  total: z.number(),
  matches: z.array(
    z.object({
      line: z.string(),
      path: z.array(z.string()),
      /** For a text line: the ref of the element that shows the text, to act on it. */
      ref: z.string().optional(),
    }),
  ),
});
export type FindOutput = z.infer<typeof findOutput>;

export const find = defineTool({
  name: 'browser_find',
  title: 'Find in snapshot',
  description: 'Outline lines matching text or a regex, with their parents.',
  input: z.object({
    text: z.string().optional().describe('Text (any case)'),
    regex: z.string().optional().describe('Regex, or /re/flags'),
    limit: z.number().min(1).optional().describe('Most hits (50)'),
  }),
  output: findOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  typedArgs: ['text'],
});

/** The find area's tools, in the order tools/list shows them. */
export const findContracts = [find] as const;
