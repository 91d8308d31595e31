/**
 * Request routing (browser_route): rules that answer a tab's matching requests with a canned
 * response or send them on with headers changed, through the Fetch domain at the Request stage.
 *
 * It shares the tab's Fetch interception with two others: the network recorder's Response-stage
 * patterns (recorders/responseBodies.ts) and the origin guard's Document patterns (originGuard.ts).
 * Every paused request is answered exactly once: while a tab has routes, Request-stage pauses of
 * documents on a guarded tab are the guard's (it checks the origin first, then calls
 * continueRouted), every other Request-stage pause is this module's.
 */
import type Protocol from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import type { AttachHook, RouteRule, TabHandle, TabState } from '../tabStates';
import { isResponseStage, RESPONSE_BODY_PATTERNS } from '../recorders/responseBodies';

export type { RouteRule } from '../tabStates';

const DOCUMENTS: Protocol.Fetch.RequestPattern = {
  urlPattern: '*',
  resourceType: 'Document',
  requestStage: 'Request',
};
const EVERY_REQUEST: Protocol.Fetch.RequestPattern = { urlPattern: '*', requestStage: 'Request' };

/**
 * The tab's routes are TabState.routes. Handlers reach a tab through a per-call wrapper of its
 * connection, the listeners through the connection itself (TabState.connection), so the
 * listeners find the tab (its id and state) by its connection here: an index, not state of its own.
 */
const tabOfConnection = new WeakMap<CdpClient, { tabId: number; state: TabState }>();

/**
 * Whether a tab's agent may act on a URL without a question or refusal (the permission gate's
 * judgement, set by the worker). Until it is set, no document is served by a route.
 */
type ServeJudge = (tabId: number, url: string) => Promise<boolean>;
let mayServe: ServeJudge = () => Promise.resolve(false);

export function judgeRoutesWith(judge: ServeJudge): ServeJudge {
  mayServe = judge;
  return judge;
}

/**
 * A route answers with the agent's own body or headers. For a document (or a request a document
 * makes) of a site the agent may not act on unasked (sensitive, admin-blocked, not granted), that
 * would run the agent's script there with the user's cookies, past the question the user was
 * owed (issue #25). Such requests go to the site unchanged instead.
 */
async function routeAllowed(
  cdp: CdpClient,
  event: Protocol.Fetch.RequestPausedEvent,
  sessionId: string | undefined,
): Promise<boolean> {
  const tabId = tabOfConnection.get(cdp)?.tabId;
  if (tabId === undefined) return false;
  const documentUrl =
    event.resourceType === 'Document'
      ? event.request.url
      : await frameDocument(cdp, event.frameId, sessionId);
  // A request without a document of its own (a worker's): judged by its own URL.
  return mayServe(tabId, documentUrl ?? event.request.url);
}

async function frameDocument(
  cdp: CdpClient,
  frameId: string,
  sessionId: string | undefined,
): Promise<string | undefined> {
  const { frameTree } = await cdp.send('Page.getFrameTree', undefined, sessionId);
  const find = (node: Protocol.Page.FrameTree): Protocol.Page.Frame | undefined =>
    node.frame.id === frameId
      ? node.frame
      : (node.childFrames ?? []).map(find).find((f) => f !== undefined);
  const frame = find(frameTree);
  if (frame === undefined) return undefined;
  // about:blank and srcdoc documents run in the origin of whoever made them.
  return /^https?:/i.test(frame.url) ? frame.url : `${frame.securityOrigin ?? frame.url}/`;
}

export function listRoutes(state: TabState): readonly RouteRule[] {
  return state.routes;
}

/**
 * Playwright-style URL glob: `**` any characters, `*` any but `/`, `?` one character,
 * `{a,b}` either; the whole URL must match.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '^';
  let inGroup = false;
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i += 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '.';
    else if (c === '{') {
      inGroup = true;
      out += '(?:';
    } else if (c === '}' && inGroup) {
      inGroup = false;
      out += ')';
    } else if (c === ',' && inGroup) out += '|';
    else out += c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`${out}$`);
}

/** Tells Chrome which requests to pause on this tab, for the recorder, the guard and the routes. */
async function enableInterception(tab: TabHandle): Promise<void> {
  const own = tab.state.connection;
  const patterns = [
    // A tab with the origin guard (its guardChild set): the guard pauses its documents.
    ...(own !== undefined && tab.state.guardChild !== undefined ? [DOCUMENTS] : []),
    ...RESPONSE_BODY_PATTERNS,
    ...(listRoutes(tab.state).length > 0 ? [EVERY_REQUEST] : []),
  ];
  await tab.cdp.send('Fetch.enable', { patterns });
}

export async function addRoute(tab: TabHandle, rule: RouteRule): Promise<void> {
  tab.state.routes = [...listRoutes(tab.state), rule];
  await enableInterception(tab);
}

/** Removes the routes with this pattern (all without one); how many went. */
export async function removeRoutes(tab: TabHandle, pattern: string | undefined): Promise<number> {
  const routes = listRoutes(tab.state);
  const kept = pattern === undefined ? [] : routes.filter((r) => r.pattern !== pattern);
  tab.state.routes = kept;
  if (kept.length !== routes.length) await enableInterception(tab);
  return routes.length - kept.length;
}

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Answers one Request-stage pause: by the newest matching route, else sends it on unchanged. */
export async function continueRouted(
  cdp: CdpClient,
  event: Protocol.Fetch.RequestPausedEvent,
  sessionId: string | undefined,
): Promise<void> {
  const url = `${event.request.url}${event.request.urlFragment ?? ''}`;
  const state = tabOfConnection.get(cdp)?.state;
  const rule = [...(state === undefined ? [] : listRoutes(state))]
    .reverse()
    .find((r) => r.matcher.test(url));
  if (rule === undefined || !(await routeAllowed(cdp, event, sessionId).catch(() => false))) {
    await cdp.send('Fetch.continueRequest', { requestId: event.requestId }, sessionId);
    return;
  }
  if (rule.status !== undefined || rule.body !== undefined) {
    const headers = Object.entries(rule.addHeaders ?? {}).map(([name, value]) => ({ name, value }));
    if (rule.contentType !== undefined)
      headers.push({ name: 'Content-Type', value: rule.contentType });
    await cdp.send(
      'Fetch.fulfillRequest',
      {
        requestId: event.requestId,
        responseCode: rule.status ?? 200,
        responseHeaders: headers,
        body: base64Utf8(rule.body ?? ''),
      },
      sessionId,
    );
    return;
  }
  const remove = new Set((rule.removeHeaders ?? []).map((h) => h.toLowerCase()));
  const headers = new Map<string, { name: string; value: string }>();
  for (const [name, value] of Object.entries(event.request.headers))
    if (!remove.has(name.toLowerCase()))
      headers.set(name.toLowerCase(), { name, value: String(value) });
  for (const [name, value] of Object.entries(rule.addHeaders ?? {}))
    headers.set(name.toLowerCase(), { name, value });
  await cdp.send(
    'Fetch.continueRequest',
    { requestId: event.requestId, headers: [...headers.values()] },
    sessionId,
  );
}

/**
 * The attach hook's listener: Request-stage pauses of the tab's own session while it has routes,
 * except a guarded tab's documents (the guard's).
 */
export const interceptRoutes: AttachHook = ({ tabId, cdp, state }) => {
  tabOfConnection.set(cdp, { tabId, state });
  state.connection = cdp;
  cdp.on('Fetch.requestPaused', (event, sessionId) => {
    if (sessionId !== undefined || isResponseStage(event)) return;
    if (state.guardChild !== undefined && event.resourceType === 'Document') return;
    // The request may have been cancelled meanwhile (tab closed, navigation superseded).
    continueRouted(cdp, event, sessionId).catch(() => undefined);
  });
};
