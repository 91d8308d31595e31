/** Routing area: answer or change the requests of the session's tabs (mocking), by URL pattern. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

export const route = defineTool({
  name: 'browser_route',
  title: 'Mock requests',
  description:
    "Answers the session's requests whose URL matches a glob (e.g. **/api/users) with status/body/contentType, or, with neither status nor body, sends them on with headers added or removed. The newest matching route wins; tabs opened later are not routed.",
  input: z.object({
    pattern: z.string().min(1).max(2000).describe('URL glob: * within a segment, ** across'),
    status: z.number().int().min(100).max(599).optional().describe('Answer with this status (200)'),
    body: z.string().max(5_000_000).optional().describe('Answer with this body'),
    contentType: z.string().max(200).optional().describe('Content-Type of the answer'),
    headers: z.array(z.string().max(8000)).max(100).optional().describe('Add "Name: Value"'),
    removeHeaders: z.string().max(2000).optional().describe('Comma-separated request headers'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  group: 'network',
});

export const routeList = defineTool({
  name: 'browser_route_list',
  title: 'Routes',
  description: 'The routes browser_route set on the current tab, newest last.',
  input: z.object({}),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

export const unroute = defineTool({
  name: 'browser_unroute',
  title: 'Remove routes',
  description: "Removes the session's routes with this pattern, or all of them.",
  input: z.object({
    pattern: z.string().min(1).max(2000).optional().describe('Pattern as given (all)'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  group: 'network',
});

/** The routing area's tools, in the order tools/list shows them. */
export const routingContracts = [route, routeList, unroute] as const;
