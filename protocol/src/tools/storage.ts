import { z } from 'zod';
import { defineTool } from './contract.js';

export const storage = defineTool({
  name: 'browser_storage',
  title: 'Storage',
  description:
    "The current page's localStorage, sessionStorage or cookies (cookie values hidden); or clear one of them.",
  input: z.object({
    area: z.enum(['local', 'session', 'cookies']).describe('Which storage'),
    clear: z.boolean().optional().describe('Empty it instead of reading it'),
  }),
  annotations: { destructiveHint: true },
  group: 'storage',
});

/** The storage area's tools, in the order tools/list shows them. */
export const storageContracts = [storage] as const;
