/** Evaluate area: run JavaScript in the page, optionally on one element. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const evaluateOutput = z.object({
  /** The JavaScript type of the result (typeof, or "null"). */
  type: z.string(),
  /**
   * The value as JSON. What JSON cannot hold is an object tagged `$type`: special numbers
   * (`{"$type":"number","value":"NaN"}`, also "-0", "Infinity"), `bigint`, `undefined`, `map`
   * (`entries`), `set` (`values`), `node`, `date`, `regexp` (`value`: their text), `reference`
   * (seen earlier in the value), and the type alone for functions, promises and the like.
   */
  value: z.json().optional(),
  /** The value was cut to fit: strings end in "…", arrays and objects end early. */
  truncated: z.boolean(),
});
export type EvaluateOutput = z.infer<typeof evaluateOutput>;

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
  output: evaluateOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  approval: 'script',
});

/** The evaluate area's tools, in the order tools/list shows them. */
export const evaluateContracts = [evaluate] as const;
