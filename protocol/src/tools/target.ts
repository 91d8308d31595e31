import { z } from '../zod.js';

/**
 * How element tools name their element: exactly one of a snapshot ref, an accessible locator
 * (role + name, nth among equals) or a CSS selector. The handler checks "exactly one", so the
 * error can say which were given.
 */
// Lengths are left unbounded here on purpose: every listed character costs tokens, and a frame
// is size-capped anyway.
export const elementTarget = {
  ref: z.string().optional().describe('Ref eN'),
  role: z.string().optional().describe('ARIA role'),
  name: z.string().optional().describe('Name, with role'),
  nth: z.number().optional().describe('From 0'),
  selector: z.string().optional().describe('CSS selector'),
};

export const targetSchema = z.object(elementTarget);
export type ElementTarget = z.infer<typeof targetSchema>;
