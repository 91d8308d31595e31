/**
 * The download half of the irreversible-action gate for responses (issue #19): a document
 * response of an agent's tab that Chrome would save rather than show (`Content-Disposition:
 * attachment`, or a type no tab shows: downloadReason) is held at the response
 * stage (Fetch), before Chrome starts the download, and waits for the user like any other
 * irreversible step. A response without a type is judged by what Chrome sniffs from its body
 * (bodySniffer.ts), read only when an agent's step there would be asked about; a PDF is held
 * when the browser's PDF viewer is off (pdfViewer.ts), since Chrome saves it then. Deny or no
 * answer replaces it with an empty 204: no file is saved. The request itself has been sent by
 * then (the server sees it); what is gated is the saving.
 * Covered and missed: docs/security.md, "Downloads".
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { within } from '../common/timing';
import { bodyBytes, isUnknownType, sniffPlainText, sniffType } from './bodySniffer';
import { pdfViewerAvailable } from './pdfViewer';
import type { SessionRecord } from '../sessionStore';
import type { ApprovalQuestions } from './approvalQuestions';
import type { PermissionGate } from './permissionGate';

/** How long a download started outside any call of the agent waits for an answer. */
const IDLE_ANSWER_MS = 60_000;
/**
 * An untyped body declared larger is held without being read: Fetch.getResponseBody buffers the
 * whole body, and a page that big without a type is rarely one Chrome shows.
 */
const MAX_SNIFFED_BODY_BYTES = 5_000_000;
/**
 * An untyped body sent without a length (chunked, or endless) is read for this long at most:
 * Fetch.getResponseBody waits for the whole body, and the tab's navigation waits on the gate.
 * Past it the response is held and asked about, as one too large to read.
 */
export const SNIFF_READ_MS = 3_000;

export interface DownloadGateDeps {
  tabId: number;
  /** The agent that owns the tab now (undefined: the user's tab again, nothing is gated). */
  owner: () => Promise<SessionRecord | undefined>;
  gate: PermissionGate;
  questions: ApprovalQuestions;
  clientName: (record: SessionRecord) => string;
}

/** `attachment` (any case, with or without parameters) means "save, do not show". */
export function isAttachment(headers: readonly Protocol.Fetch.HeaderEntry[] | undefined): boolean {
  const value = headers?.find((h) => h.name.toLowerCase() === 'content-disposition')?.value;
  return value !== undefined && /^\s*attachment\s*(;|$)/i.test(value);
}

/**
 * Types a tab shows rather than saves (Blink's supported MIME types, roughly): markup, text,
 * script, JSON and XML, the common images and media (PDF: see downloadReason). `+xml` and
 * `+json` types count as their base. A few text types Chrome saves all the same (blink's
 * unsupported text types: CSV, calendars, vCards, RTF…) do not count.
 */
const SHOWN_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/xml',
  'application/xhtml+xml',
  'multipart/x-mixed-replace',
  'image/png',
  'image/jpeg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/apng',
  'image/bmp',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/ogg',
  'audio/wav',
  'audio/x-wav',
  'audio/webm',
  'audio/aac',
  'audio/flac',
]);
const SAVED_TEXT_TYPES = new Set([
  'text/csv',
  'text/x-csv',
  'text/comma-separated-values',
  'text/tab-separated-values',
  'text/tsv',
  'text/calendar',
  'text/x-calendar',
  'text/vcalendar',
  'text/x-vcalendar',
  'text/vcard',
  'text/x-vcard',
  'text/x-vcf',
  'text/directory',
  'text/ldif',
  'text/qif',
  'text/x-qif',
  'text/rtf',
  'text/ofx',
  'text/vnd.sun.j2me.app-descriptor',
]);

function header(
  headers: readonly Protocol.Fetch.HeaderEntry[] | undefined,
  name: string,
): string | undefined {
  return headers?.find((h) => h.name.toLowerCase() === name)?.value;
}

/** Whether a tab saves rather than shows a response of this (lower-case, bare) type. */
export function isSavedType(type: string): boolean {
  if (SHOWN_TYPES.has(type)) return false;
  if (type.startsWith('text/')) return SAVED_TEXT_TYPES.has(type);
  return !/^application\/[\w.+-]+\+(xml|json)$/.test(type);
}

/**
 * Why Chrome would save this document response instead of showing it (issue #25), or
 * undefined: an `attachment`, or a type no tab shows (application/zip, octet-stream, a CSV…),
 * whatever the disposition says (`inline; filename=x.bin` is saved too). `untyped`: no type
 * (or `*\/*` and the like), so Chrome sniffs the body; `plain`: text/plain, whose body Chrome
 * sniffs for binary bytes; `pdf`: saved only when the PDF viewer is
 * off. The caller reads the body or asks the tab (finalReason).
 */
export function downloadReason(
  status: number | undefined,
  headers: readonly Protocol.Fetch.HeaderEntry[] | undefined,
): 'attachment' | 'type' | 'untyped' | 'plain' | 'pdf' | undefined {
  if (isAttachment(headers)) return 'attachment';
  // No body to save: a redirect hop, No Content, Reset Content.
  if (status === undefined || (status >= 300 && status < 400) || status === 204 || status === 205)
    return undefined;
  const type = (header(headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (isUnknownType(type)) return 'untyped';
  // Chrome sniffs text/plain for binary bytes (and saves what it finds), unless told not to.
  if (type === 'text/plain')
    return /^\s*nosniff\s*$/i.test(header(headers, 'x-content-type-options') ?? '')
      ? undefined
      : 'plain';
  if (type === 'application/pdf') return 'pdf';
  return isSavedType(type) ? 'type' : undefined;
}

/**
 * The type Chrome sniffs from an untyped response's body, or undefined when the body is too
 * large to read or cannot be read (the gate then holds it).
 */
export async function sniffedType(
  cdp: CdpClient,
  event: Protocol.Fetch.RequestPausedEvent,
  sniff: (bytes: Uint8Array) => string = sniffType,
): Promise<string | undefined> {
  const declared = Number(header(event.responseHeaders, 'content-length') ?? '0');
  if (declared > MAX_SNIFFED_BODY_BYTES) return undefined;
  try {
    const read = cdp.send('Fetch.getResponseBody', { requestId: event.requestId });
    read.catch(() => undefined);
    const got = await within(read, SNIFF_READ_MS);
    return got === undefined ? undefined : sniff(bodyBytes(got.body, got.base64Encoded));
  } catch {
    return undefined;
  }
}

type Reason = 'attachment' | 'type' | 'sniffed' | 'plainBytes' | 'pdf';

/** What the headers leave open, told by the body (untyped) or the tab (PDF viewer). */
async function finalReason(
  cdp: CdpClient,
  tabId: number,
  event: Protocol.Fetch.RequestPausedEvent,
  reason: NonNullable<ReturnType<typeof downloadReason>>,
): Promise<Reason | undefined> {
  if (reason === 'untyped' || reason === 'plain') {
    const type = await sniffedType(cdp, event, reason === 'plain' ? sniffPlainText : sniffType);
    if (type !== 'application/pdf')
      return type === undefined || isSavedType(type)
        ? reason === 'plain'
          ? 'plainBytes'
          : 'sniffed'
        : undefined;
  } else if (reason !== 'pdf') return reason;
  return (await pdfViewerAvailable(tabId)) ? undefined : 'pdf';
}

function attachmentName(headers: readonly Protocol.Fetch.HeaderEntry[] | undefined): string {
  const value = header(headers, 'content-disposition') ?? '';
  const name = /filename\s*=\s*"?([^";]{1,80})/i.exec(value)?.[1];
  return name === undefined ? '' : ` “${name.replace(/[\p{Cc}“”]/gu, '_')}”`;
}

/** Listens before any Fetch.enable of the tab, so no paused document response is missed. */
export function installDownloadGate(cdp: CdpClient, deps: DownloadGateDeps): void {
  cdp.on('Fetch.requestPaused', (event, sessionId) => {
    if (sessionId !== undefined || event.resourceType !== 'Document') return;
    if (event.responseStatusCode === undefined && event.responseErrorReason === undefined) return;
    // Deny (or an error while asking: fail closed) answers 204 No Content instead of the
    // attachment: nothing is saved, and the tab stays on its page (no error page).
    const refuse = () =>
      cdp.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: 204,
        responseHeaders: [{ name: 'Content-Type', value: 'text/html' }],
        body: '',
      });
    void decide(cdp, deps, event)
      .then(
        (allowed) =>
          allowed ? cdp.send('Fetch.continueRequest', { requestId: event.requestId }) : refuse(),
        refuse,
      )
      .catch(() => undefined);
  });
}

async function decide(
  cdp: CdpClient,
  deps: DownloadGateDeps,
  event: Protocol.Fetch.RequestPausedEvent,
): Promise<boolean> {
  const typed = downloadReason(event.responseStatusCode, event.responseHeaders);
  if (typed === undefined) return true;
  const record = await deps.owner();
  if (record === undefined) return true;
  const page = await chrome.tabs.get(deps.tabId).catch(() => undefined);
  const why = await deps.gate.irreversibleGate(record, page?.url);
  if (why === undefined) return true;
  // Last: only a response the agent would be asked about costs a body read or a look at the tab.
  const reason = await finalReason(cdp, deps.tabId, event, typed);
  if (reason === undefined) return true;
  const client = deps.clientName(record);
  let site = '';
  try {
    site = new URL(event.request.url).origin;
  } catch {
    // An opaque URL: asked without a site.
  }
  const deadline = deps.gate.deadlineOf(record.sessionId) ?? Date.now() + IDLE_ANSWER_MS;
  const { verdict } = await deps.questions.ask(
    deps.tabId,
    {
      kind: 'irreversible',
      sessionId: record.sessionId,
      client,
      targetOrigin: site,
      fields: [],
      text: `Let ${client} download a file${attachmentName(event.responseHeaders)}${site ? ` from ${site}` : ''}?`,
      why: `${
        {
          attachment: 'The server sent it as an attachment to save',
          type: 'The server sent a type of file that Chrome saves rather than shows',
          sniffed: 'The server named no type and sent bytes that Chrome saves rather than shows',
          plainBytes:
            'The server called it text but sent bytes that Chrome saves rather than shows',
          pdf: 'The server sent a PDF, and with the PDF viewer off Chrome saves it',
        }[reason]
      }, which cannot be undone. ${why}`,
      scopes: ['once'],
    },
    deadline,
  );
  return verdict === 'allow';
}
