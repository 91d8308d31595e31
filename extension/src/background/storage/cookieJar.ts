/**
 * The cookies an agent may see and change: those of the sites of its session's tabs (a tab on
 * shop.example.test sees the cookies that site would receive on any path, host-only and
 * domain cookies alike), minus any the session's origin policy blocks. In the user's own
 * browser the cookie jar holds every site the user is signed in to; an agent reaches no further
 * than the sites it works on.
 */
import { BridgeError, checkOrigin, ErrorCode, type OriginPolicy } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';

export type Cookie = Protocol.Network.Cookie;

/** A site of the session: the scheme and host of one of its tabs. */
export interface Site {
  scheme: 'http' | 'https';
  host: string;
}

export function sitesOf(urls: readonly string[]): Site[] {
  const out: Site[] = [];
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const site: Site = { scheme: url.protocol === 'https:' ? 'https' : 'http', host: url.hostname };
    if (!out.some((s) => s.host === site.host)) out.push(site);
  }
  return out;
}

function bare(domain: string): string {
  return domain.startsWith('.') ? domain.slice(1) : domain;
}

/** Whether a cookie of this domain is sent to host (host-only or a parent domain). */
export function domainCovers(domain: string, host: string): boolean {
  const d = bare(domain).toLowerCase();
  const h = host.toLowerCase();
  return h === d || (domain.startsWith('.') && h.endsWith(`.${d}`));
}

/** The origin policy's say on a cookie domain (as the site would be visited). */
export function policyAllows(policy: OriginPolicy | undefined, domain: string): boolean {
  const host = bare(domain);
  return (
    checkOrigin(policy, `https://${host}/`).allowed &&
    checkOrigin(policy, `http://${host}/`).allowed
  );
}

export function inScope(
  cookie: Cookie,
  sites: readonly Site[],
  policy: OriginPolicy | undefined,
): boolean {
  return (
    sites.some((s) => domainCovers(cookie.domain, s.host)) && policyAllows(policy, cookie.domain)
  );
}

/** Every cookie of the browser (profile); callers filter with inScope. */
export async function allCookies(cdp: CdpClient): Promise<Cookie[]> {
  try {
    const { cookies } = await cdp.send('Storage.getCookies', {});
    return cookies;
  } catch {
    const { cookies } = await cdp.send('Network.getAllCookies');
    return cookies;
  }
}

export async function scopedCookies(
  cdp: CdpClient,
  sites: readonly Site[],
  policy: OriginPolicy | undefined,
): Promise<Cookie[]> {
  return (await allCookies(cdp)).filter((c) => inScope(c, sites, policy));
}

export async function deleteCookie(cdp: CdpClient, c: Cookie): Promise<void> {
  await cdp.send('Network.deleteCookies', {
    name: c.name,
    domain: c.domain,
    path: c.path,
    ...(c.partitionKey === undefined ? {} : { partitionKey: c.partitionKey }),
  });
}

export interface NewCookie {
  name: string;
  value: string;
  domain?: string | undefined;
  path?: string | undefined;
  expires?: number | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: 'Strict' | 'Lax' | 'None' | undefined;
}

/**
 * Sets one cookie. Without a domain it is host-only for `site`; a domain with a leading dot (or
 * one that differs from the site's host) makes a domain cookie, as a Set-Cookie header would.
 */
export async function setCookie(
  cdp: CdpClient,
  cookie: NewCookie,
  site: Site,
  policy: OriginPolicy | undefined,
): Promise<void> {
  const host = cookie.domain === undefined ? site.host : bare(cookie.domain);
  if (!policyAllows(policy, host)) {
    throw new BridgeError(
      ErrorCode.BLOCKED_URL,
      `Refused to set a cookie for ${host}: the session's origin policy blocks it.`,
      'Set cookies only for sites this session may visit.',
    );
  }
  const path = cookie.path ?? '/';
  const hostOnly = cookie.domain === undefined || cookie.domain.toLowerCase() === site.host;
  const { success } = await cdp.send('Network.setCookie', {
    name: cookie.name,
    value: cookie.value,
    path,
    ...(hostOnly ? { url: `${site.scheme}://${site.host}${path}` } : { domain: cookie.domain }),
    ...(cookie.expires !== undefined && cookie.expires >= 0 ? { expires: cookie.expires } : {}),
    ...(cookie.httpOnly === undefined ? {} : { httpOnly: cookie.httpOnly }),
    ...(cookie.secure === undefined ? {} : { secure: cookie.secure }),
    ...(cookie.sameSite === undefined ? {} : { sameSite: cookie.sameSite }),
  });
  if (!success) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The browser refused the cookie ${JSON.stringify(cookie.name)} for ${host}.`,
      'Check the domain (the page\'s host or a parent of it), and that sameSite "None" comes with secure: true.',
    );
  }
}

/** The domain a cookie for `domain` may be set on: the host of a session tab or a parent of it. */
export function siteFor(domain: string | undefined, sites: readonly Site[]): Site | undefined {
  if (domain === undefined) return sites[0];
  return sites.find((s) => domainCovers(`.${bare(domain)}`, s.host));
}
