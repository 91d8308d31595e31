import { z } from 'zod';

/** How element tools name their element: a ref from the latest browser_snapshot. */
export const elementTarget = {
  element: z
    .string()
    .max(300)
    .optional()
    .describe('Human-readable description of the element, used in logs and the side panel'),
  ref: z
    .string()
    .min(1)
    .max(40)
    .describe('Exact element ref from the latest browser_snapshot, e.g. "e12"'),
};
