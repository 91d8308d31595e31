/**
 * The download half of the irreversible-action gate for responses (issue #19): a document
 * response of an agent's tab that says `Content-Disposition: attachment` is held at the response
 * stage (Fetch), before Chrome starts the download, and waits for the user like any other
 * irreversible step. Deny or no answer replaces it with an empty 204: no file is saved. The
 * request itself has been sent by then (the server sees it); what is gated is the saving.
 * Covered and missed: docs/security.md, "Downloads".
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import type { SessionRecord } from '../sessionStore';
import type { ApprovalQuestions } from './approvalQuestions';
import type { PermissionGate } from './permissionGate';

/** How long a download started outside any call of the agent waits for an answer. */
const IDLE_ANSWER_MS = 60_000;

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

function attachmentName(headers: readonly Protocol.Fetch.HeaderEntry[] | undefined): string {
  const value = headers?.find((h) => h.name.toLowerCase() === 'content-disposition')?.value ?? '';
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
    void decide(deps, event)
      .then(
        (allowed) =>
          allowed ? cdp.send('Fetch.continueRequest', { requestId: event.requestId }) : refuse(),
        refuse,
      )
      .catch(() => undefined);
  });
}

async function decide(
  deps: DownloadGateDeps,
  event: Protocol.Fetch.RequestPausedEvent,
): Promise<boolean> {
  if (!isAttachment(event.responseHeaders)) return true;
  const record = await deps.owner();
  if (record === undefined) return true;
  const page = await chrome.tabs.get(deps.tabId).catch(() => undefined);
  const why = await deps.gate.irreversibleGate(record, page?.url);
  if (why === undefined) return true;
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
      why: `The server sent it as an attachment to save, which cannot be undone. ${why}`,
      scopes: ['once'],
    },
    deadline,
  );
  return verdict === 'allow';
}
