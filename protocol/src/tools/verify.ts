/**
 * Verify area (group `testing`): assertions an agent checks its work with. Each passes with a
 * short "Done" line or fails with VERIFY_FAILED saying what the page has instead; and a
 * Playwright locator for an element, for tests written from a session.
 */
import { z } from '../zod.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

/** The element an assertion was satisfied by, or a locator was made for. */
const elementOutput = z.object({ ref: z.string(), role: z.string(), name: z.string() });

/** Structured result of a passed assertion (a failed one is an error, VERIFY_FAILED). */
export const verifyOutput = z.object({ passed: z.literal(true), element: elementOutput });
export type VerifyOutput = z.infer<typeof verifyOutput>;

/** Structured result of browser_generate_locator. */
export const locatorOutput = z.object({ locator: z.string(), element: elementOutput });
export type LocatorOutput = z.infer<typeof locatorOutput>;

const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export const verifyElementVisible = defineTool({
  name: 'browser_verify_element_visible',
  title: 'Verify element visible',
  description: 'Check that an element with this role and name is visible.',
  input: z.object({
    role: z.string().min(1).max(100).describe('ARIA role'),
    accessibleName: z.string().max(1000).describe('Its name'),
  }),
  output: verifyOutput,
  annotations: readOnly,
  group: 'testing',
});

export const verifyTextVisible = defineTool({
  name: 'browser_verify_text_visible',
  title: 'Verify text visible',
  description: 'Check that this text is visible on the page (any case).',
  input: z.object({
    text: z.string().min(1).max(10_000).describe('Text'),
  }),
  output: verifyOutput,
  annotations: readOnly,
  group: 'testing',
  typedArgs: ['text'],
});

export const verifyListVisible = defineTool({
  name: 'browser_verify_list_visible',
  title: 'Verify list visible',
  description: 'Check that a list (or any element) shows each of these items.',
  input: z.object({
    ...elementTarget,
    items: z.array(z.string().max(10_000)).min(1).max(100).describe('Item texts'),
  }),
  output: verifyOutput,
  annotations: readOnly,
  group: 'testing',
});

export const verifyValue = defineTool({
  name: 'browser_verify_value',
  title: 'Verify value',
  description: 'Check a field\'s value; for a checkbox or radio, "true" or "false".',
  input: z.object({
    ...elementTarget,
    type: z
      .enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider'])
      .optional()
      .describe('Kind of field'),
    value: z.string().max(100_000).describe('Expected value'),
  }),
  output: verifyOutput,
  annotations: readOnly,
  group: 'testing',
  typedArgs: ['value'],
});

export const generateLocator = defineTool({
  name: 'browser_generate_locator',
  title: 'Generate locator',
  description: 'A Playwright locator for an element, for use in tests.',
  input: z.object({ ...elementTarget }),
  output: locatorOutput,
  annotations: readOnly,
  group: 'testing',
});

/** The verify area's tools, in the order tools/list shows them. */
export const verifyContracts = [
  verifyElementVisible,
  verifyTextVisible,
  verifyListVisible,
  verifyValue,
  generateLocator,
] as const;
