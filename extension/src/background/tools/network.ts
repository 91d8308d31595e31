/** Network area's handlers: the tab's requests, and one request with its bodies. */
import {
  BridgeError,
  ErrorCode,
  textResult,
  type NetworkRequestsOutput,
  type ResultFile,
} from '@browser-agent/protocol';
import { sessionTabs, type AreaHandlers, type Handler } from '../handlerContext';
import type { NetworkEntry, TabHandle } from '../tabStates';
import { hideBodySecrets, hideTypedSecrets } from '../recorders/requestSecrets';
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
  return `${e.index}. [${e.id}] ${e.method} ${oneLine(e.url, 500)} → ${status} (${e.resourceType})`;
}

/** What a page loads to show itself; left out of the list unless asked for (or failed). */
function isStatic(e: NetworkEntry): boolean {
  const type = e.resourceType.toLowerCase();
  if (type === 'fetch' || type === 'xhr') return false;
  return e.failure === undefined && e.status !== undefined && e.status < 400;
}

function urlRegExp(filter: string | undefined): RegExp | undefined {
  if (filter === undefined) return undefined;
  try {
    return new RegExp(filter);
  } catch (err) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `filter is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`,
      'Give a JavaScript regexp source, e.g. "/api/.*user", or use url for a plain substring.',
    );
  }
}

export const networkRequests: Handler<'browser_network_requests'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const regexp = urlRegExp(args.filter);
  // Our own filters say what is wanted; Playwright's habit hides static resources otherwise.
  const withStatic =
    args.static === true ||
    args.includeStatic === true ||
    args.url !== undefined ||
    args.method !== undefined ||
    args.status !== undefined ||
    args.type !== undefined;
  const matches = tab.state.network.filter(
    (e) =>
      (withStatic || !isStatic(e)) &&
      (regexp === undefined || regexp.test(e.url)) &&
      (args.url === undefined || e.url.includes(args.url)) &&
      (args.method === undefined || e.method.toUpperCase() === args.method.toUpperCase()) &&
      (args.status === undefined ||
        (args.status === 0 ? e.failure !== undefined : e.status === args.status)) &&
      (args.type === undefined || e.resourceType.toLowerCase() === args.type.toLowerCase()),
  );
  const shown = matches.slice(-MAX_LISTED);
  const data: NetworkRequestsOutput = {
    requests: shown.map(requestData),
    omitted: matches.length - shown.length,
  };
  const hidden = withStatic ? 0 : tab.state.network.filter(isStatic).length;
  const staticNote =
    hidden > 0 ? `\n[${hidden} static resources left out; static: true shows them]` : '';
  if (matches.length === 0) return textResult(`No matching requests.${staticNote}`, data);
  const older =
    matches.length > shown.length
      ? `\n[${matches.length - shown.length} older requests omitted]`
      : '';
  return textResult(
    `${untrustedSection('Network requests', shown.map(line).join('\n'))}${older}${staticNote}`,
    data,
  );
};

/** One request as data, for both network tools' structured results. */
function requestData(e: NetworkEntry): NetworkRequestsOutput['requests'][number] {
  return {
    index: e.index,
    id: e.id,
    method: e.method,
    url: e.url,
    ...(e.status === undefined || e.failure !== undefined ? {} : { status: e.status }),
    resourceType: e.resourceType,
    ...(e.failure === undefined ? {} : { failure: e.failure }),
  };
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(
      ([k, v]) => `  ${oneLine(k, 100)}: ${SECRET_HEADERS.test(k) ? '[hidden]' : oneLine(v, 1000)}`,
    )
    .join('\n');
}

function findEntry(
  network: readonly NetworkEntry[],
  args: { index?: number | undefined; id?: string | undefined },
): NetworkEntry {
  if (args.index === undefined && args.id === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'Give the request by index (its number in browser_network_requests) or id.',
      'Call browser_network_requests to see them.',
    );
  }
  const entry = network.find((e) =>
    args.index !== undefined ? e.index === args.index : e.id === args.id,
  );
  if (entry !== undefined) return entry;
  const which =
    args.index !== undefined ? `number ${args.index}` : `id ${oneLine(args.id ?? '', 100)}`;
  throw new BridgeError(
    ErrorCode.ELEMENT_NOT_FOUND,
    `No request with ${which} in this tab's log.`,
    'Call browser_network_requests to see them (the log starts again when the page navigates).',
  );
}

async function requestBody(tab: TabHandle, entry: NetworkEntry): Promise<string | undefined> {
  if (!entry.hasPostData) return undefined;
  const post =
    entry.postData ??
    (await tab.cdp
      .send('Network.getRequestPostData', { requestId: entry.id })
      .then((r) => r.postData)
      .catch(() => '(not available)'));
  const type = Object.entries(entry.requestHeaders).find(
    ([k]) => k.toLowerCase() === 'content-type',
  )?.[1];
  return hideBodySecrets(post, type ?? '', tab.state.typedSecrets);
}

const NO_BODY =
  'a redirect, a stream, a body over 5 MB, or a page that navigated away keeps no body';

async function responseBody(tab: TabHandle, entry: NetworkEntry): Promise<string | undefined> {
  if (entry.status === undefined || entry.failure !== undefined) return undefined;
  // Fetch/XHR bodies were kept as they arrived (responseBodies.ts); other types are asked for
  // now, even before loadingFinished: a body the page never reads may not finish for a while.
  const body =
    entry.body ??
    (await tab.cdp
      .send('Network.getResponseBody', { requestId: entry.id })
      .then((r) => describeBody(r.body, r.base64Encoded, entry.mimeType))
      .catch(
        (err: unknown) =>
          `(not available: ${err instanceof Error ? oneLine(err.message, 200) : 'unknown error'}; ${NO_BODY})`,
      ));
  // A server that echoes the submitted form (a validation error page) echoes the password too.
  return hideTypedSecrets(body, tab.state.typedSecrets);
}

const EXTENSIONS: [RegExp, string][] = [
  [/json/, 'json'],
  [/html/, 'html'],
  [/javascript|ecmascript/, 'js'],
  [/css/, 'css'],
  [/xml/, 'xml'],
  [/png/, 'png'],
  [/jpe?g/, 'jpg'],
  [/gif/, 'gif'],
  [/webp/, 'webp'],
  [/svg/, 'svg'],
  [/pdf/, 'pdf'],
  [/^text\//, 'txt'],
];

/** The response's bytes for a file (browser_network_request `filename`), as the server saves them. */
async function bodyFile(tab: TabHandle, entry: NetworkEntry): Promise<ResultFile> {
  if (entry.status === undefined || entry.failure !== undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Request ${entry.index} has no response body to save (${entry.failure === undefined ? 'still pending' : 'it failed'}).`,
      'Pick a finished request from browser_network_requests.',
    );
  }
  const raw = await tab.cdp
    .send('Network.getResponseBody', { requestId: entry.id })
    .then((r) => (r.base64Encoded ? r.body : bytesToBase64(new TextEncoder().encode(r.body))))
    .catch(() =>
      // An unread Fetch/XHR body was kept as text when it arrived (responseBodies.ts).
      entry.body === undefined ? undefined : bytesToBase64(new TextEncoder().encode(entry.body)),
    );
  if (raw === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The body of request ${entry.index} is not available: ${NO_BODY}.`,
      'Reload the page and save the body before navigating away.',
    );
  }
  const mime = entry.mimeType.toLowerCase();
  const ext = EXTENSIONS.find(([re]) => re.test(mime))?.[1] ?? 'bin';
  return { data: raw, ext, prefix: 'response', label: 'Response body saved to' };
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export const networkRequest: Handler<'browser_network_request'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const entry = findEntry(tab.state.network, args);
  const maxBody = args.maxBodyChars ?? DEFAULT_BODY_CHARS;
  const heading = `Request ${entry.index} [${oneLine(entry.id, 100)}]`;
  if (args.part !== undefined) {
    const text =
      args.part === 'request-headers'
        ? headerLines(entry.requestHeaders)
        : args.part === 'response-headers'
          ? headerLines(entry.responseHeaders)
          : args.part === 'request-body'
            ? await requestBody(tab, entry)
            : await responseBody(tab, entry);
    return textResult(
      untrustedSection(`${heading} ${args.part}`, capText(text ?? '(none)', maxBody)),
      { request: requestData(entry) },
    );
  }
  const parts = [line(entry), 'Request headers:', headerLines(entry.requestHeaders)];
  const post = await requestBody(tab, entry);
  if (post !== undefined) parts.push('Request body:', capText(post, maxBody));
  parts.push('Response headers:', headerLines(entry.responseHeaders));
  if (args.filename !== undefined) {
    return {
      content: [{ type: 'text', text: untrustedSection(heading, parts.join('\n')) }],
      serverData: { files: [await bodyFile(tab, entry)] },
      structured: { request: requestData(entry) },
    };
  }
  const body = await responseBody(tab, entry);
  if (body !== undefined)
    parts.push(
      `Response body (${oneLine(entry.mimeType, 100) || 'unknown type'}):`,
      capText(body, maxBody),
    );
  return textResult(untrustedSection(heading, parts.join('\n')), { request: requestData(entry) });
};

export const networkStateSet: Handler<'browser_network_state_set'> = async (args, ctx) => {
  await ctx.ensureTab();
  const offline = args.state === 'offline';
  for (const tab of await sessionTabs(ctx)) {
    await tab.cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  return textResult(`Network is now ${args.state}.`);
};

/** The network area's handlers, by tool name. */
export const networkHandlers = {
  browser_network_requests: networkRequests,
  browser_network_request: networkRequest,
  browser_network_state_set: networkStateSet,
} satisfies AreaHandlers;
