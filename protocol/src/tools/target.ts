import { z } from 'zod';

/**
 * How element tools name their element: exactly one of a snapshot ref, an accessible locator
 * (role + name, nth among equals) or a CSS selector. The handler checks "exactly one", so the
 * error can say which were given.
 */
export const elementTarget = {
  element: z.string().max(300).optional().describe('What the element is, for logs'),
  ref: z.string().min(1).max(40).optional().describe('Ref from browser_snapshot, e.g. "e12"'),
  role: z.string().min(1).max(40).optional().describe('ARIA role, with name (instead of ref)'),
  name: z.string().max(500).optional().describe('Accessible name, exact, with role'),
  nth: z.number().int().min(0).optional().describe('Which role+name match, from 0'),
  selector: z.string().min(1).max(1000).optional().describe('CSS selector (instead of ref)'),
};

export const targetSchema = z.object(elementTarget);
export type ElementTarget = z.infer<typeof targetSchema>;
