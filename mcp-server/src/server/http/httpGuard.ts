/**
 * Who may talk to the HTTP transport. A page on any site can make the user's browser send
 * requests to 127.0.0.1, and a DNS-rebinding page does so under its own host name; the Host
 * check stops the second, the Origin check the first.
 */
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h) || h.endsWith('.localhost');
}

/** Splits "name:port" and "[v6]:port"; the port is undefined when absent or not a number. */
function splitHost(value: string): { name: string; port: number | undefined } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(value.trim());
  if (!m) return { name: value, port: undefined };
  return { name: m[1] ?? value, port: m[2] === undefined ? undefined : Number(m[2]) };
}

/**
 * `--allowed-hosts` entries: "name" (any port) or "name:port" (that Host header exactly); "*"
 * turns the Host check off (a reverse proxy in front that checks it instead).
 */
function allowedByList(host: string, name: string, allowedHosts: readonly string[]): boolean {
  const h = host.toLowerCase();
  const n = name.toLowerCase();
  return allowedHosts.some((entry) => {
    const e = entry.trim().toLowerCase();
    return e === '*' || e === h || e === n;
  });
}

/** Why the request is refused, or undefined when it may pass. */
export function checkHttpHeaders(
  headers: IncomingHttpHeaders,
  boundHost: string,
  port: number,
  allowedHosts: readonly string[] = [],
): string | undefined {
  const host = headers.host;
  if (host === undefined) return 'A Host header is required.';
  const { name, port: hostPort } = splitHost(host);
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  const nameOk = isLoopbackName(name) || name.toLowerCase() === bound.toLowerCase();
  const listed = allowedByList(host, name, allowedHosts);
  if (!listed && (!nameOk || (hostPort !== undefined && hostPort !== port))) {
    return `Host "${host}" is not this server; connect to http://127.0.0.1:${port}, or add the name to --allowed-hosts.`;
  }
  const origin = headers.origin;
  if (origin === undefined || origin === 'null') {
    // Non-browser clients send no Origin; "null" comes from sandboxed and file:// documents.
    return origin === 'null' ? 'Origin "null" is not allowed.' : undefined;
  }
  let originHost: string;
  try {
    originHost = new URL(origin).hostname;
  } catch {
    return `Origin "${origin}" is not a URL.`;
  }
  const originOk =
    isLoopbackName(originHost) ||
    isLoopbackName(`[${originHost}]`) ||
    originHost.toLowerCase() === boundHost.toLowerCase() ||
    allowedHosts.some((e) => e.trim() !== '*' && splitHost(e).name.toLowerCase() === originHost);
  return originOk ? undefined : `Cross-site requests are refused (Origin "${origin}").`;
}
