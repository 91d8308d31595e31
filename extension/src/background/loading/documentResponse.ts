/**
 * The HTTP status of the document a navigation loaded, so a 404 or a 500 page is not reported as
 * plain success. Read from the tab's Network events (the network log's attach hook enables them).
 */
import type { TabHandle } from '../tabStates';
import type { NavigationWatch } from './navigationWatch';

export interface DocumentResponse {
  status: number;
  url: string;
}

export interface DocumentResponseWatch {
  /** The main frame's last document response since the watch began, if any. */
  latest(): DocumentResponse | undefined;
  dispose(): void;
}

/** Watches the main frame's document responses while a navigation runs. */
export function watchDocumentResponse(
  tab: TabHandle,
  watch: NavigationWatch,
): DocumentResponseWatch {
  let latest: DocumentResponse | undefined;
  const off = tab.cdp.on('Network.responseReceived', (e, sessionId) => {
    if (sessionId !== undefined || e.type !== 'Document' || e.frameId !== watch.mainFrameId) return;
    latest = { status: e.response.status, url: e.response.url };
  });
  return { latest: () => latest, dispose: off };
}

/**
 * Standard reason phrases. The server's own reason text is never shown: it is the server's
 * string (a page could put instructions there), and HTTP/2 and HTTP/3 carry none anyway.
 */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "404 Not Found", or the bare number for a status without a standard phrase here. */
export function statusLabel(response: DocumentResponse): string {
  const reason = REASONS[response.status];
  return reason === undefined ? String(response.status) : `${response.status} ${reason}`;
}

/**
 * The lines a navigation result adds for its document's status: always the status, and for an
 * error status a warning that the page is the server's error page.
 */
export function formatDocumentResponse(response: DocumentResponse | undefined): string {
  if (response === undefined || response.status === 0) return '';
  const line = `\n- HTTP status: ${statusLabel(response)}`;
  if (response.status < 400) return line;
  const side = response.status >= 500 ? 'a server error' : 'a client error';
  return `${line}\n- Warning: the server answered ${statusLabel(response)} (${side}): the page shown is its error page, not the content asked for. Check the URL, or the server's log for a 5xx.`;
}
