/** Network area: the tab's requests, and one request with its bodies. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

/** Structured result (outputSchema / structuredContent): what a program would branch on. */
export const networkRequestsOutput = z.object({
  requests: z.array(
    z.object({
      /** 1-based, for browser_network_request's `index`; renumbered when the page navigates. */
      index: z.number(),
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

/** Structured result of browser_network_request: the request, as browser_network_requests lists it. */
export const networkRequestOutput = z.object({
  request: networkRequestsOutput.shape.requests.element,
});
export type NetworkRequestOutput = z.infer<typeof networkRequestOutput>;

export const networkRequests = defineTool({
  name: 'browser_network_requests',
  title: 'Network requests',
  description:
    'Requests of the current tab since it last navigated, numbered for browser_network_request. Successful static resources (document, scripts, styles, images, fonts, media) are left out unless static, or a url/method/status/type filter, is given.',
  input: z.object({
    filter: z.string().max(500).optional().describe('Regexp the URL must match'),
    static: z.boolean().optional().describe('Include static resources'),
    includeStatic: z.boolean().optional().describe('Same as static'),
    url: z.string().max(1000).optional().describe('Substring of the URL'),
    method: z.string().max(20).optional().describe('e.g. POST'),
    status: z.number().int().min(0).max(999).optional().describe('HTTP status; 0 = failed'),
    type: z.string().max(40).optional().describe('Resource type, e.g. Fetch, XHR, Document'),
    filename: z.string().max(500).optional().describe('Save the list to this file instead'),
  }),
  output: networkRequestsOutput,
  serverStep: 'saveResultText',
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
  description:
    'Headers and bodies of one request from browser_network_requests, by its number (index) or id.',
  input: z.object({
    index: z.number().int().min(1).optional().describe('Number in browser_network_requests'),
    id: z.string().min(1).max(100).optional().describe('Request id'),
    part: z
      .enum(['request-headers', 'request-body', 'response-headers', 'response-body'])
      .optional()
      .describe('Only this part'),
    filename: z.string().max(500).optional().describe('Save the response body to this file'),
    maxBodyChars: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('Cut bodies here (20000)'),
  }),
  output: networkRequestOutput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
  serverStep: 'saveResultBytes',
});

export const networkStateSet = defineTool({
  name: 'browser_network_state_set',
  title: 'Online or offline',
  description:
    "Takes the session's tabs offline (every request fails) or back online. Tabs opened later start online.",
  input: z.object({
    state: z.enum(['online', 'offline']).describe('offline: all requests fail'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

/** The network area's tools, in the order tools/list shows them. */
export const networkContracts = [networkRequests, networkRequest, networkStateSet] as const;
