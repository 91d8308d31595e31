import type { OriginPolicy } from './frames.js';

// WHATWG URL exists in Node and in every extension context; protocol has no DOM lib to declare it.
// Its host parser already turns every IPv4 spelling (0x7f.1, 2130706433, 127.1, 0177.0.0.1) into
// dotted decimal and every IPv6 spelling into its compressed form, so the checks below only see
// canonical literals; what it leaves alone is case in brackets, the trailing dot of a name, and
// IPv4 addresses embedded in IPv6 ones.
interface ParsedUrl {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly origin: string;
}
declare const URL: new (input: string) => ParsedUrl;

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

export type PolicyVerdict = { allowed: true } | { allowed: false; reason: string };

/** Lower case, no brackets, no trailing dot: "LocalHost." and "localhost" are one host. */
export function normalizeHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
}

/**
 * The one spelling of a host that every site list compares (the origin policy, the sensitive
 * sites, the admin lists, site grants), applied to the list entry and to the URL alike: what
 * the WHATWG URL parser makes of it (lower case, a Unicode name in punycode, every IPv4 form
 * such as `0x7f.1` or `2130706433` in dotted decimal, IPv6 compressed), without userinfo,
 * brackets or trailing dots. Undefined when it is no host at all.
 */
export function canonicalHost(host: string): string | undefined {
  // `user:pass@host`: only the part after the last `@` names the host.
  const bare = host.trim().replace(/^.*@/, '');
  if (bare === '' || /[/?#\\\s]/.test(bare)) return undefined;
  let parsed: string;
  try {
    // An IPv6 literal parses only in brackets.
    const literal = bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
    parsed = new URL(`http://${literal}/`).hostname;
  } catch {
    return undefined;
  }
  const h = normalizeHost(parsed);
  return h === '' ? undefined : h;
}

/** An http(s) URL's site in the one spelling: scheme, canonical host, port (never empty). */
export interface CanonicalSite {
  readonly scheme: 'http:' | 'https:';
  readonly host: string;
  readonly port: string;
}

export function canonicalSite(raw: string): CanonicalSite | undefined {
  let url: ParsedUrl;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = canonicalHost(url.hostname);
  if (host === undefined) return undefined;
  return { scheme: url.protocol, host, port: url.port || (DEFAULT_PORTS[url.protocol] ?? '') };
}

/**
 * `scheme://host[:port]` with the host canonical and the default port dropped: the key a site
 * grant is stored under, and what an origin entry is compared with. Undefined for a URL that is
 * not http(s).
 */
export function siteOrigin(raw: string): string | undefined {
  const site = canonicalSite(raw);
  if (site === undefined) return undefined;
  const { scheme, host, port } = site;
  const shown = port === DEFAULT_PORTS[scheme] ? '' : `:${port}`;
  return `${scheme}//${host.includes(':') ? `[${host}]` : host}${shown}`;
}

type Ipv4 = readonly [number, number, number, number];

function parseIpv4(h: string): Ipv4 | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!m) return undefined;
  const p: Ipv4 = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  return p.every((x) => x <= 255) ? p : undefined;
}

function isPrivateIpv4([a, b]: Ipv4): boolean {
  return (
    a === 0 || // "this network"; 0.0.0.0 reaches the local host on Linux and macOS
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) // carrier-grade NAT, often a private network too
  );
}

/** Eight 16-bit groups, or undefined when `h` is not an IPv6 literal. */
function parseIpv6(h: string): number[] | undefined {
  if (!h.includes(':')) return undefined;
  let text = h.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4 !== undefined) {
    const p = parseIpv4(v4);
    if (!p) return undefined;
    text = `${text.slice(0, -v4.length)}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0] ?? '');
  const tail = groups(halves[1] ?? '');
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

function isPrivateIpv6(groups: number[]): boolean {
  const g = (i: number): number => groups[i] ?? 0;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((x) => x === 0);
  const embeddedV4: Ipv4 = [g(6) >> 8, g(6) & 0xff, g(7) >> 8, g(7) & 0xff];
  if (zeroUpTo(7) && (g(7) === 0 || g(7) === 1)) return true; // :: and ::1
  if (zeroUpTo(5) && g(5) === 0xffff) return isPrivateIpv4(embeddedV4); // ::ffff:a.b.c.d
  if (zeroUpTo(6)) return isPrivateIpv4(embeddedV4); // ::a.b.c.d (deprecated "compatible")
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((x) => x === 0))
    return isPrivateIpv4(embeddedV4); // NAT64 64:ff9b::a.b.c.d
  return (g(0) & 0xfe00) === 0xfc00 || (g(0) & 0xffc0) === 0xfe80; // ULA fc00::/7, link-local
}

/**
 * Loopback, RFC 1918, link-local, carrier-grade NAT and unique-local addresses, in any spelling
 * the URL parser lets through, plus the names that always mean this machine ("localhost" and
 * its subdomains). Other names are not resolved here: see `isPrivateAddress` for the address
 * the browser actually connected to.
 */
export function isPrivateHost(host: string): boolean {
  const h = normalizeHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  return isPrivateAddress(h);
}

/** An IP literal (as CDP reports `remoteIPAddress`, with or without brackets) that is private. */
export function isPrivateAddress(address: string): boolean {
  const h = normalizeHost(address);
  const v4 = parseIpv4(h);
  if (v4) return isPrivateIpv4(v4);
  const v6 = parseIpv6(h);
  return v6 ? isPrivateIpv6(v6) : false;
}

/**
 * One entry of an origin list: `https://a.com` (that origin exactly, default port included),
 * `a.com` or `*.a.com` (the host on any scheme and port), `a.com:3000` (that host and port on
 * any scheme), and `http://a.com:*` or `http://*.a.com` (that scheme, any port or subdomain).
 */
interface OriginPattern {
  readonly scheme: string | undefined;
  readonly host: string;
  readonly subdomains: boolean;
  /** A port number as text, `*` for any, undefined for the scheme's default (or any, schemeless). */
  readonly port: string | undefined;
}

const ENTRY =
  /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?(\[[0-9a-f:.]+\]|[^\s/:*[\]?#@]+)(?::(\d{1,5}|\*))?\/?$/i;

/** Undefined when the entry is none of the shapes above (the config refuses it). */
export function parseOriginEntry(entry: string): OriginPattern | undefined {
  // Userinfo (`https://admin@a.test`) names no part of a site: it is dropped, not refused.
  const m = ENTRY.exec(entry.trim().replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)[^/@]*@/i, '$1'));
  if (!m) return undefined;
  const port = m[4];
  if (port !== undefined && port !== '*' && Number(port) > 65535) return undefined;
  const host = canonicalHost(m[3] ?? '');
  if (host === undefined) return undefined;
  return {
    scheme: m[1]?.toLowerCase(),
    host,
    subdomains: m[2] !== undefined,
    port,
  };
}

function matches(url: ParsedUrl, entry: string): boolean {
  const p = parseOriginEntry(entry);
  if (!p) return false;
  if (p.scheme !== undefined && `${p.scheme}:` !== url.protocol) return false;
  const host = canonicalHost(url.hostname) ?? normalizeHost(url.hostname);
  if (p.subdomains ? host !== p.host && !host.endsWith(`.${p.host}`) : host !== p.host)
    return false;
  const urlPort = url.port || DEFAULT_PORTS[url.protocol];
  if (p.port === '*') return true;
  if (p.port !== undefined) return urlPort === p.port;
  return p.scheme === undefined || urlPort === DEFAULT_PORTS[`${p.scheme}:`];
}

/**
 * Decides whether a session may load a URL. Only http(s) is judged here; other schemes have
 * their own rules (restricted URLs).
 */
export function checkOrigin(policy: OriginPolicy | undefined, raw: string): PolicyVerdict {
  if (!policy) return { allowed: true };
  let url: ParsedUrl;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: true };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: true };
  if (policy.blockedOrigins?.some((e) => matches(url, e)))
    return { allowed: false, reason: `${url.origin} is on the blocked list` };
  if (
    policy.allowedOrigins &&
    policy.allowedOrigins.length > 0 &&
    !policy.allowedOrigins.some((e) => matches(url, e))
  ) {
    return { allowed: false, reason: `${url.origin} is not on the allowed list` };
  }
  if (policy.blockPrivateNetwork && isPrivateHost(url.hostname))
    return { allowed: false, reason: `${url.hostname} is a private-network address` };
  return { allowed: true };
}

/**
 * The second half of private-network blocking: a public name may resolve to a private address
 * (DNS rebinding, or a name that simply points at 127.0.0.1). The browser reports the address it
 * connected to only once a response arrives, so this check runs then.
 */
export function checkRemoteAddress(
  policy: OriginPolicy | undefined,
  url: string,
  remoteAddress: string | undefined,
): PolicyVerdict {
  if (!policy?.blockPrivateNetwork || !remoteAddress) return { allowed: true };
  if (!isPrivateAddress(remoteAddress)) return { allowed: true };
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { allowed: true };
  }
  return {
    allowed: false,
    reason: `${host} resolved to the private-network address ${remoteAddress}`,
  };
}

/** The parts of a WHATWG URL a pattern is matched against (protocol has no DOM lib). */
export interface SiteUrl {
  readonly origin: string;
  readonly hostname: string;
  readonly pathname: string;
}

/** A site pattern read once: its canonical host (see canonicalHost) and what else it names. */
interface SitePattern {
  /** Set for the origin form (`https://x.test:8080`): the canonical origin it names. */
  readonly origin: string | undefined;
  readonly host: string;
  /** `*.x.test`: subdomains only. */
  readonly subdomainsOnly: boolean;
  /** `x.test:3000`: that port on any scheme. */
  readonly port: string | undefined;
  /** `google.com/settings`: a path prefix, lower case; `/` for none. */
  readonly path: string;
}

/**
 * Patterns read before, by their text. A list is matched on every state-changing call (the
 * sensitive sites, about 66 entries by default, three or four times per call), and reading a
 * pattern parses a URL: 0.38 ms per check of the default list before this (#26). Bounded, so
 * a page cannot grow it: only lists the user, an admin or a session's server wrote reach it.
 */
const readPatterns = new Map<string, SitePattern | undefined>();
const MAX_READ_PATTERNS = 4_096;

function readSitePattern(pattern: string): SitePattern | undefined {
  if (readPatterns.has(pattern)) return readPatterns.get(pattern);
  const parsed = parseSitePattern(pattern);
  if (readPatterns.size >= MAX_READ_PATTERNS) readPatterns.clear();
  readPatterns.set(pattern, parsed);
  return parsed;
}

/** The last URL host matched and its canonical spelling: a list is matched against one URL. */
let lastHost: { raw: string; canonical: string | undefined } | undefined;

function canonicalHostOf(hostname: string): string | undefined {
  if (lastHost?.raw !== hostname) lastHost = { raw: hostname, canonical: canonicalHost(hostname) };
  return lastHost.canonical;
}

function parseSitePattern(pattern: string): SitePattern | undefined {
  const p = pattern.trim();
  if (p === '') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(p);
  if (scheme) {
    const site = canonicalSite(p);
    const origin = siteOrigin(p);
    if (site === undefined || origin === undefined) return undefined;
    const rest = p.slice(scheme[0].length);
    const slash = rest.indexOf('/');
    return {
      origin,
      host: site.host,
      subdomainsOnly: false,
      port: undefined,
      path: pathPrefix(slash < 0 ? '/' : rest.slice(slash)),
    };
  }
  const subdomainsOnly = p.startsWith('*.');
  const body = subdomainsOnly ? p.slice(2) : p;
  const slash = body.indexOf('/');
  const authority = (slash < 0 ? body : body.slice(0, slash)).replace(/^.*@/, '');
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(authority);
  const host = m ? canonicalHost(m[1] ?? '') : undefined;
  if (host === undefined) return undefined;
  return {
    origin: undefined,
    host,
    subdomainsOnly,
    port: m?.[2] === undefined ? undefined : String(Number(m[2])),
    path: pathPrefix(slash < 0 ? '/' : body.slice(slash)),
  };
}

function pathPrefix(path: string): string {
  const trimmed = path.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function underPath(pathname: string, prefix: string): boolean {
  return prefix === '/' || pathname.toLowerCase().startsWith(prefix);
}

/**
 * Whether a URL matches a site pattern: `example.com` matches it and its subdomains,
 * `*.example.com` only subdomains, `example.com:3000` that port on any scheme, a pattern with a
 * scheme (`https://x.test:8080`) the origin exactly, and a path (`google.com/settings`) pages
 * under it. Both sides are compared in one spelling (canonicalHost, siteOrigin): case, trailing
 * dots, userinfo, Unicode names, IPv4 forms and default ports never decide a match.
 */
export function siteMatches(pattern: string, url: SiteUrl): boolean {
  const p = readSitePattern(pattern);
  if (p === undefined) return false;
  if (!underPath(url.pathname, p.path)) return false;
  if (p.origin !== undefined) return siteOrigin(`${url.origin}/`) === p.origin;
  const host = canonicalHostOf(url.hostname);
  if (host === undefined) return false;
  const sub = host.endsWith(`.${p.host}`);
  if (p.subdomainsOnly ? !sub : host !== p.host && !sub) return false;
  return p.port === undefined || canonicalSite(`${url.origin}/`)?.port === p.port;
}
