/**
 * Cookies area: list, get, set, delete and clear cookies, as Playwright MCP names them. Scoped
 * to the sites of the session's tabs (see extension/src/background/storage/cookieJar.ts).
 */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

const READS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const WRITES = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

const name = z.string().min(1).max(4096);

/** Structured result of browser_cookie_list and browser_cookie_get. */
export const cookiesOutput = z.object({
  cookies: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      domain: z.string(),
      path: z.string(),
      httpOnly: z.boolean(),
      secure: z.boolean(),
      sameSite: z.string().optional(),
      /** Seconds since the epoch; absent for a session cookie. */
      expires: z.number().optional(),
    }),
  ),
});
export type CookiesOutput = z.infer<typeof cookiesOutput>;

export const cookieList = defineTool({
  name: 'browser_cookie_list',
  title: 'List cookies',
  description: "Cookies of the sites of this session's tabs, optionally filtered by domain/path.",
  input: z.object({
    domain: z.string().max(255).optional().describe('Only cookies whose domain contains this'),
    path: z.string().max(4096).optional().describe('Only cookies whose path starts with this'),
  }),
  output: cookiesOutput,
  annotations: READS,
  group: 'storage',
});

export const cookieGet = defineTool({
  name: 'browser_cookie_get',
  title: 'Get cookie',
  description: 'A cookie by name, with its attributes.',
  input: z.object({ name: name.describe('Cookie name') }),
  output: cookiesOutput,
  annotations: READS,
  group: 'storage',
});

export const cookieSet = defineTool({
  name: 'browser_cookie_set',
  title: 'Set cookie',
  description:
    "Sets a cookie for the current page's site (or a domain of one of this session's tabs).",
  input: z.object({
    name: name.describe('Cookie name'),
    value: z.string().max(4096).describe('Cookie value'),
    domain: z.string().max(255).optional().describe("Cookie domain (the page's host)"),
    path: z.string().max(4096).optional().describe('Cookie path (/)'),
    expires: z.number().optional().describe('Expiry, Unix seconds (a session cookie)'),
    httpOnly: z.boolean().optional().describe('HTTP only'),
    secure: z.boolean().optional().describe('Secure'),
    sameSite: z.enum(['Strict', 'Lax', 'None']).optional().describe('SameSite'),
  }),
  annotations: WRITES,
  group: 'storage',
  typedArgs: ['value'],
});

export const cookieDelete = defineTool({
  name: 'browser_cookie_delete',
  title: 'Delete cookie',
  description: 'Deletes the cookies of this name.',
  input: z.object({ name: name.describe('Cookie name') }),
  annotations: WRITES,
  group: 'storage',
});

export const cookieClear = defineTool({
  name: 'browser_cookie_clear',
  title: 'Clear cookies',
  description: "Deletes every cookie of the sites of this session's tabs.",
  input: z.object({}),
  annotations: WRITES,
  group: 'storage',
});

/** The cookies area's tools, in the order tools/list shows them. */
export const cookiesContracts = [
  cookieList,
  cookieGet,
  cookieSet,
  cookieDelete,
  cookieClear,
] as const;
