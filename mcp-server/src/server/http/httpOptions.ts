import { isLoopbackName } from './httpGuard.js';

export interface HttpOptions {
  port: number;
  host: string;
  /** `--no-token`: serve without the bearer token (loopback binds only). */
  noToken?: boolean;
}

export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** `--port` / `--host`, or what is wrong with them. */
export function parseHttpFlags(
  port: string | boolean | undefined,
  host: string | boolean | undefined,
  noToken?: boolean,
): HttpOptions | undefined | string {
  if (port === undefined) {
    if (noToken === true) return '--no-token only applies with --port.';
    return host === undefined ? undefined : '--host only applies with --port.';
  }
  const n = Number(port);
  if (typeof port !== 'string' || !Number.isInteger(n) || n < 0 || n > 65535) {
    return `--port must be a port number (0-65535), got "${String(port)}".`;
  }
  if (typeof host === 'string' && host.trim() === '') return '--host must not be empty.';
  const bound = typeof host === 'string' ? host : DEFAULT_HTTP_HOST;
  if (noToken === true && !isLoopbackName(bound.includes(':') ? `[${bound}]` : bound))
    return `--no-token is refused with --host ${bound}: anyone who can reach that address could drive your browser. Drop --no-token (clients then send the token the server prints).`;
  return { port: n, host: bound, ...(noToken === true ? { noToken: true } : {}) };
}
