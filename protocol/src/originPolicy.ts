import type { OriginPolicy } from './frames.js';

// WHATWG URL exists in Node and in every extension context; protocol has no DOM lib to declare it.
interface ParsedUrl {
  readonly protocol: string;
  readonly hostname: string;
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

/** "https://a.com" matches that origin; "a.com" and "*.a.com" match by host name. */
function matches(url: ParsedUrl, entry: string): boolean {
  if (entry.includes('://')) {
    try {
      return new URL(entry).origin === url.origin;
    } catch {
      return false;
    }
  }
  const host = url.hostname.toLowerCase();
  const pattern = entry.toLowerCase();
  if (pattern.startsWith('*.')) return host === pattern.slice(2) || host.endsWith(pattern.slice(1));
  return host === pattern;
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
