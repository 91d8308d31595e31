import { EXTENSION_ORIGIN } from '@browser-agent/protocol';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Only our pinned extension may open the relay WebSocket: any web page served from loopback can
 * open one too (it sends its own Origin), and a DNS-rebinding page sends a foreign Host.
 */
export function checkUpgrade(
  origin: string | undefined,
  host: string | undefined,
  port: number,
): string | undefined {
  if (origin !== EXTENSION_ORIGIN)
    return `Origin ${origin ?? '(none)'} is not the Browser Agent extension`;
  if (host === undefined) return 'Missing Host header';
  const hostname = host.replace(/:\d+$/, '');
  const hostPort = host.slice(hostname.length + 1);
  if (!LOOPBACK_HOSTS.has(hostname)) return `Host ${host} is not loopback`;
  if (hostPort !== '' && Number(hostPort) !== port) return `Host ${host} names another port`;
  return undefined;
}
