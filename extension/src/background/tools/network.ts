import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { NetworkEntry } from '../tabStates';
import { hideBodySecrets } from '../recorders/requestSecrets';
import { describeBody } from '../recorders/responseBodies';
import { capText, oneLine, untrustedSection } from '../common/text';

const MAX_LISTED = 200;
const DEFAULT_BODY_CHARS = 20_000;
/** Credentials stay out of tool output even when the agent asks for headers. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie)$/i;

function line(e: NetworkEntry): string {
  const status =
    e.failure !== undefined
      ? `failed: ${oneLine(e.failure, 100)}`
      : e.status === undefined
        ? 'pending'
        : String(e.status);
  return `- [${e.id}] ${e.method} ${oneLine(e.url, 500)} → ${status} (${e.resourceType})`;
}

export const networkRequests: Handler<'browser_network_requests'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const matches = tab.state.network.filter(
    (e) =>
      (args.url === undefined || e.url.includes(args.url)) &&
      (args.method === undefined || e.method.toUpperCase() === args.method.toUpperCase()) &&
      (args.status === undefined ||
        (args.status === 0 ? e.failure !== undefined : e.status === args.status)) &&
      (args.type === undefined || e.resourceType.toLowerCase() === args.type.toLowerCase()),
  );
  if (matches.length === 0) return textResult('No matching requests.');
  const shown = matches.slice(-MAX_LISTED);
  const older =
    matches.length > shown.length
      ? `\n[${matches.length - shown.length} older requests omitted]`
      : '';
  return textResult(`${untrustedSection('Network requests', shown.map(line).join('\n'))}${older}`);
};

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(
      ([k, v]) => `  ${oneLine(k, 100)}: ${SECRET_HEADERS.test(k) ? '[hidden]' : oneLine(v, 1000)}`,
    )
    .join('\n');
}

export const networkRequest: Handler<'browser_network_request'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const entry = tab.state.network.find((e) => e.id === args.id);
  if (entry === undefined) {
    throw new BridgeError(
      ErrorCode.ELEMENT_NOT_FOUND,
      `No request with id ${oneLine(args.id, 100)} in this tab's log.`,
      'Call browser_network_requests to see the ids.',
    );
  }
  const maxBody = args.maxBodyChars ?? DEFAULT_BODY_CHARS;
  const parts = [line(entry), 'Request headers:', headerLines(entry.requestHeaders)];
  if (entry.hasPostData) {
    const post =
      entry.postData ??
      (await tab.cdp
        .send('Network.getRequestPostData', { requestId: entry.id })
        .then((r) => r.postData)
        .catch(() => '(not available)'));
    const type = Object.entries(entry.requestHeaders).find(
      ([k]) => k.toLowerCase() === 'content-type',
    )?.[1];
    parts.push('Request body:', capText(hideBodySecrets(post, type ?? ''), maxBody));
  }
  parts.push('Response headers:', headerLines(entry.responseHeaders));
  // Fetch/XHR bodies were kept as they arrived (responseBodies.ts); other types are asked for
  // now, even before loadingFinished: a body the page never reads may not finish for a while.
  if (entry.status !== undefined && entry.failure === undefined) {
    const body =
      entry.body ??
      (await tab.cdp
        .send('Network.getResponseBody', { requestId: entry.id })
        .then((r) => describeBody(r.body, r.base64Encoded, entry.mimeType))
        .catch(
          (err: unknown) =>
            `(not available: ${err instanceof Error ? oneLine(err.message, 200) : 'unknown error'}; a redirect, a stream, a body over 5 MB, or a page that navigated away keeps no body)`,
        ));
    parts.push(
      `Response body (${oneLine(entry.mimeType, 100) || 'unknown type'}):`,
      capText(body, maxBody),
    );
  }
  return textResult(untrustedSection(`Request ${oneLine(entry.id, 100)}`, parts.join('\n')));
};

/** The network area's handlers, by tool name. */
export const networkHandlers = {
  browser_network_requests: networkRequests,
  browser_network_request: networkRequest,
} satisfies AreaHandlers;
