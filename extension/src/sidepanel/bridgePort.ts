import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';
import { DEVTOOLS_TARGET_ID } from '../shared/messages';

/** The daemon's port: `?port=` on the relay page (launch mode, tests), else the default. */
export function bridgePort(): number {
  const raw = new URLSearchParams(location.search).get('port');
  const port = raw === null ? NaN : Number(raw);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_BRIDGE_PORT;
}

/**
 * True on the relay page a launched browser opens (`?launch=1`): the browser is the bridge's own,
 * so the service worker holds the link and this page is only a viewer (one hop fewer per call).
 */
export function launchedBrowser(): boolean {
  return new URLSearchParams(location.search).get('launch') === '1';
}

/**
 * True on a launched browser's relay page whose daemon found no browser policy files on its
 * machine (`?policy=none`, daemon/launch/policyFiles.ts): Chrome can have no admin site lists for
 * this extension, so calls need not wait for its first chrome.storage.managed answer.
 */
export function noBrowserPolicy(): boolean {
  return launchedBrowser() && new URLSearchParams(location.search).get('policy') === 'none';
}

/**
 * The blank tab a launched browser opened at start (`?spare=`, its DevTools target id, read by the
 * daemon over the browser's pipe): the worker gives it to the first session that opens a tab
 * (background/worker/spareTab.ts). Undefined elsewhere, or when it is not a target id.
 */
export function spareTarget(): string | undefined {
  if (!launchedBrowser()) return undefined;
  const id = new URLSearchParams(location.search).get('spare');
  return id !== null && DEVTOOLS_TARGET_ID.test(id) ? id : undefined;
}
