import { z } from 'zod';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

export const evaluate = defineTool({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Run a JS function in the page and return its JSON result, unfiltered. A target is its argument.',
  input: z.object({
    function: z
      .string()
      .min(1)
      .max(100_000)
      .describe('e.g. "() => document.title" or "(el) => el.value"'),
    ...elementTarget,
  }),
  annotations: { destructiveHint: true, openWorldHint: true },
  approval: 'script',
});

/** The evaluate area's tools, in the order tools/list shows them. */
export const evaluateContracts = [evaluate] as const;
