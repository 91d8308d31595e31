/**
 * Keeps the bodies of the page's Fetch/XHR responses, read in the browser before the page sees
 * them. Network.getResponseBody cannot be relied on for these: the renderer records a body only
 * as the page reads it, so a response the page never reads (a fire-and-forget POST, a status
 * check) answers "No data found for resource with given identifier" forever. Fetch interception
 * at the Response stage reads the body in the browser process whether the page reads it or not.
 */
import type Protocol from 'devtools-protocol';
import { DOCUMENT_RESPONSES } from '../common/constants';
import type { CdpClient } from '../cdp';
import type { TabState } from '../tabStates';

/** Merged into every Fetch.enable of a tab: a later enable replaces the patterns of an earlier one. */
export const RESPONSE_BODY_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { urlPattern: '*', resourceType: 'Fetch', requestStage: 'Response' },
  { urlPattern: '*', resourceType: 'XHR', requestStage: 'Response' },
  // Not a body to record: the download gate holds document responses (approvals/downloadGate.ts).
  DOCUMENT_RESPONSES,
];

/** Longest body kept per response; the tool's own maxBodyChars cuts further. */
export const MAX_KEPT_BODY_CHARS = 200_000;
/** Larger declared bodies are not read: the page would wait for the whole download first. */
const MAX_READ_BYTES = 5_000_000;
/** Never read in one piece: the page would get nothing until the stream ends, which may be never. */
const STREAMING_TYPE = /event-stream|ndjson|stream\+json|grpc|multipart\//i;
const TEXT_TYPE = /^text\/|json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql/i;

export function isResponseStage(event: Protocol.Fetch.RequestPausedEvent): boolean {
  return event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
}

export function keepResponseBodies(cdp: CdpClient, state: TabState): void {
  cdp.on('Fetch.requestPaused', (event, sessionId) => {
    // Document responses are the download gate's (approvals/downloadGate.ts).
    if (sessionId !== undefined || !isResponseStage(event) || event.resourceType === 'Document')
      return;
    void readBody(cdp, state, event).finally(() =>
      // The request may have been cancelled meanwhile (tab closed, navigation superseded).
      cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined),
    );
  });
}

async function readBody(
  cdp: CdpClient,
  state: TabState,
  event: Protocol.Fetch.RequestPausedEvent,
): Promise<void> {
  const status = event.responseStatusCode ?? 0;
  const headers = event.responseHeaders ?? [];
  const header = (name: string): string =>
    headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
  const type = header('content-type');
  const declared = Number(header('content-length') || '0');
  // Redirects and empty statuses have no body to read; streams and huge bodies must not be held.
  if (event.responseErrorReason !== undefined || (status >= 300 && status < 400)) return;
  if (status === 204 || STREAMING_TYPE.test(type) || declared > MAX_READ_BYTES) return;
  try {
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', {
      requestId: event.requestId,
    });
    const text = describeBody(body, base64Encoded, type);
    const id = event.networkId;
    const entry = id === undefined ? undefined : state.network.find((e) => e.id === id);
    if (entry === undefined) return;
    entry.body = text;
    // The whole body is in: a page that never reads it never gets loadingFinished, and the
    // request would otherwise count as in flight (settling) and outlive navigations in the log.
    entry.finished = true;
  } catch {
    // The body could not be read (request cancelled); the tool falls back to Network.getResponseBody.
  }
}

/** Text as text (capped, with a note), anything else as a one-line summary. */
export function describeBody(body: string, base64Encoded: boolean, contentType: string): string {
  const bytes = base64Encoded
    ? Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(body);
  const declaredText = contentType === '' || TEXT_TYPE.test(contentType);
  if (!declaredText || (base64Encoded && !isUtf8(bytes))) {
    return `(binary body, ${bytes.length} bytes${contentType ? `, ${contentType}` : ''}; not shown)`;
  }
  const text = base64Encoded ? new TextDecoder().decode(bytes) : body;
  if (text.length <= MAX_KEPT_BODY_CHARS) return text;
  return `${text.slice(0, MAX_KEPT_BODY_CHARS)}\n[… body truncated: ${text.length} characters in all, ${MAX_KEPT_BODY_CHARS} kept]`;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
