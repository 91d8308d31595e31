import { Hint } from '../common/hints';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The hint for a failed navigation. A refused connection to a loopback port almost always means
 * the agent's own dev server is not running (yet), so that is what the hint says.
 */
export function navigationFailedHint(url: string, errorText: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Hint.checkUrl;
  }
  const loopback = LOOPBACK_HOSTS.has(parsed.hostname) || parsed.hostname.endsWith('.localhost');
  if (!loopback || !/ERR_CONNECTION_(REFUSED|RESET|CLOSED)|ERR_ADDRESS_UNREACHABLE/.test(errorText))
    return Hint.checkUrl;
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return `Nothing answers on port ${port}: is the dev server running on that port? Start it (e.g. npm run dev), wait until it prints its URL, then navigate again.`;
}
