import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';

/** The daemon's port: `?port=` on the relay page (launch mode, tests), else the default. */
export function bridgePort(): number {
  const raw = new URLSearchParams(location.search).get('port');
  const port = raw === null ? NaN : Number(raw);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_BRIDGE_PORT;
}
