/** Network area: the tab's requests, and one request with its bodies. */
import { z } from 'zod';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const networkRequestsOutput = z.object({
  requests: z.array(
    z.object({
      id: z.string(),
      method: z.string(),
      url: z.string(),
      /** HTTP status; absent while pending or when the request failed. */
      status: z.number().optional(),
      resourceType: z.string(),
      failure: z.string().optional(),
    }),
  ),
  /** Matching requests left out (the oldest). */
  omitted: z.number(),
});
export type NetworkRequestsOutput = z.infer<typeof networkRequestsOutput>;

export const networkRequests = defineTool({
  name: 'browser_network_requests',
  title: 'Network requests',
  description:
    'Requests of the current tab since it was opened or last navigated, with ids for browser_network_request.',
  input: z.object({
    url: z.string().max(1000).optional().describe('Substring of the URL'),
    method: z.string().max(20).optional().describe('e.g. POST'),
    status: z.number().int().min(0).max(999).optional().describe('HTTP status; 0 = failed'),
    type: z.string().max(40).optional().describe('Resource type, e.g. Fetch, XHR, Document'),
  }),
  output: networkRequestsOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

export const networkRequest = defineTool({
  name: 'browser_network_request',
  title: 'Network request details',
  description: 'Headers and bodies of one request from browser_network_requests.',
  input: z.object({
    id: z.string().min(1).max(100).describe('Request id'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('Cut bodies here (20000)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

/** The network area's tools, in the order tools/list shows them. */
export const networkContracts = [networkRequests, networkRequest] as const;
