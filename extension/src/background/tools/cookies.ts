/**
 * Cookies area's handlers: list, get, set, delete and clear the cookies of the sites of the
 * session's tabs (engine: ../storage/cookieJar.ts). Values are shown: the tools are opt-in
 * (`--caps storage`) and reading a cookie is what the agent asked for; values from the
 * server's `--secrets` file are replaced by their names on the way out.
 */
import { BridgeError, ErrorCode, textResult, type CookiesOutput } from '@browser-agent/protocol';
import type { AreaHandlers, Handler, HandlerContext } from '../handlerContext';
import { capText, oneLine, untrustedSection } from '../common/text';
import {
  deleteCookie,
  scopedCookies,
  setCookie,
  siteFor,
  type Cookie,
  type Site,
} from '../storage/cookieJar';
import { sessionSites } from '../storage/storageState';

const MAX_OUTPUT_CHARS = 50_000;

function describe(c: Cookie, full: boolean): string {
  const base = `${oneLine(c.name, 500)}=${oneLine(c.value, 5000)} (domain: ${oneLine(c.domain, 300)}, path: ${oneLine(c.path, 500)}`;
  if (!full) return `${base})`;
  const expires = c.session ? 'session' : new Date(c.expires * 1000).toISOString();
  return `${base}, httpOnly: ${c.httpOnly}, secure: ${c.secure}, sameSite: ${c.sameSite ?? 'Lax'}, expires: ${expires})`;
}

/** The structured result: the cookies listed, capped like the text. */
function cookiesData(cookies: readonly Cookie[]): CookiesOutput {
  let size = 0;
  const out: CookiesOutput['cookies'] = [];
  for (const c of cookies) {
    size += c.name.length + c.value.length + c.domain.length + c.path.length;
    if (size > MAX_OUTPUT_CHARS && out.length > 0) break;
    out.push({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      httpOnly: c.httpOnly,
      secure: c.secure,
      ...(c.sameSite === undefined ? {} : { sameSite: c.sameSite }),
      ...(c.session ? {} : { expires: c.expires }),
    });
  }
  return { cookies: out };
}

async function scope(ctx: HandlerContext): Promise<{ cookies: Cookie[]; sites: Site[] }> {
  const tab = await ctx.currentTab();
  const sites = await sessionSites(ctx);
  return { cookies: await scopedCookies(tab.cdp, sites, ctx.policy), sites };
}

export const cookieList: Handler<'browser_cookie_list'> = async (args, ctx) => {
  let { cookies } = await scope(ctx);
  if (args.domain !== undefined) {
    const d = args.domain.toLowerCase();
    cookies = cookies.filter((c) => c.domain.toLowerCase().includes(d));
  }
  if (args.path !== undefined) cookies = cookies.filter((c) => c.path.startsWith(args.path ?? ''));
  if (cookies.length === 0) return textResult('No cookies found', cookiesData([]));
  const lines = cookies.map((c) => describe(c, false)).join('\n');
  return textResult(
    untrustedSection('Cookies', capText(lines, MAX_OUTPUT_CHARS)),
    cookiesData(cookies),
  );
};

export const cookieGet: Handler<'browser_cookie_get'> = async (args, ctx) => {
  const { cookies } = await scope(ctx);
  const found = cookies.filter((c) => c.name === args.name);
  if (found.length === 0)
    return textResult(
      `Cookie ${JSON.stringify(oneLine(args.name, 200))} not found`,
      cookiesData([]),
    );
  const lines = found.map((c) => describe(c, true)).join('\n');
  return textResult(
    untrustedSection('Cookie', capText(lines, MAX_OUTPUT_CHARS)),
    cookiesData(found),
  );
};

export const cookieSet: Handler<'browser_cookie_set'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const sites = await sessionSites(ctx);
  const site = siteFor(args.domain, sites);
  if (site === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      args.domain === undefined
        ? 'The current page is not an http(s) page, so a cookie has no site to go to.'
        : `Refused to set a cookie for ${oneLine(args.domain, 200)}: none of this session's tabs is on that site.`,
      "Navigate to the site first (browser_navigate), then set its cookie; domain may be the page's host or a parent domain of it.",
    );
  }
  await setCookie(tab.cdp, args, site, ctx.policy);
  return textResult(
    `Set cookie ${JSON.stringify(oneLine(args.name, 200))} for ${oneLine(args.domain ?? site.host, 300)}${args.path === undefined ? '' : ` path ${oneLine(args.path, 300)}`}.`,
  );
};

export const cookieDelete: Handler<'browser_cookie_delete'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cookies } = await scope(ctx);
  const doomed = cookies.filter((c) => c.name === args.name);
  for (const c of doomed) await deleteCookie(tab.cdp, c);
  return textResult(
    `Deleted ${doomed.length} cookie(s) named ${JSON.stringify(oneLine(args.name, 200))}.`,
  );
};

export const cookieClear: Handler<'browser_cookie_clear'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  const { cookies, sites } = await scope(ctx);
  for (const c of cookies) await deleteCookie(tab.cdp, c);
  const where = sites.map((s) => s.host).join(', ') || 'no http(s) site';
  return textResult(`Deleted ${cookies.length} cookie(s) of ${oneLine(where, 1000)}.`);
};

/** The cookies area's handlers, by tool name. */
export const cookiesHandlers = {
  browser_cookie_list: cookieList,
  browser_cookie_get: cookieGet,
  browser_cookie_set: cookieSet,
  browser_cookie_delete: cookieDelete,
  browser_cookie_clear: cookieClear,
} satisfies AreaHandlers;
