import type { OriginPolicy } from './frames.js';

// WHATWG URL exists in Node and in every extension context; protocol has no DOM lib to declare it.
interface ParsedUrl {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly origin: string;
}
declare const URL: new (input: string) => ParsedUrl;

export type PolicyVerdict = { allowed: true } | { allowed: false; reason: string };

/** Loopback, RFC 1918, link-local and unique-local addresses: "private network". */
function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    h.startsWith('fc') ||
    h.startsWith('fd') ||
    h.startsWith('fe80:')
  )
    return true;
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    a === 0
  );
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
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Undefined when the entry is none of the shapes above (the config refuses it). */
export function parseOriginEntry(entry: string): OriginPattern | undefined {
  const m = ENTRY.exec(entry.trim());
  if (!m) return undefined;
  const port = m[4];
  if (port !== undefined && port !== '*' && Number(port) > 65535) return undefined;
  return {
    scheme: m[1]?.toLowerCase(),
    host: (m[3] ?? '').toLowerCase(),
    subdomains: m[2] !== undefined,
    port,
  };
}

function matches(url: ParsedUrl, entry: string): boolean {
  const p = parseOriginEntry(entry);
  if (!p) return false;
  if (p.scheme !== undefined && `${p.scheme}:` !== url.protocol) return false;
  const host = url.hostname.toLowerCase();
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
