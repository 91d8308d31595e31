export interface HttpOptions {
  port: number;
  host: string;
}

export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** `--port` / `--host`, or what is wrong with them. */
export function parseHttpFlags(
  port: string | boolean | undefined,
  host: string | boolean | undefined,
): HttpOptions | undefined | string {
  if (port === undefined) {
    return host === undefined ? undefined : '--host only applies with --port.';
  }
  const n = Number(port);
  if (typeof port !== 'string' || !Number.isInteger(n) || n < 0 || n > 65535) {
    return `--port must be a port number (0-65535), got "${String(port)}".`;
  }
  if (typeof host === 'string' && host.trim() === '') return '--host must not be empty.';
  return { port: n, host: typeof host === 'string' ? host : DEFAULT_HTTP_HOST };
}
