/** Routing area's handlers: mock or change the session's requests by URL pattern. */
import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import { sessionTabs, type AreaHandlers, type Handler } from '../handlerContext';
import {
  addRoute,
  globToRegExp,
  listRoutes,
  removeRoutes,
  type RouteRule,
} from '../routing/routes';
import { oneLine } from '../common/text';

function parseHeaders(lines: readonly string[] | undefined): Record<string, string> | undefined {
  if (lines === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `Not a header line: ${JSON.stringify(oneLine(line, 100))}.`,
        'Write each header as "Name: Value".',
      );
    }
    out[name] = line.slice(colon + 1).trim();
  }
  return out;
}

function describe(rule: RouteRule): string {
  const details: string[] = [];
  if (rule.status !== undefined) details.push(`status=${rule.status}`);
  if (rule.body !== undefined)
    details.push(
      `body=${JSON.stringify(rule.body.length > 50 ? `${rule.body.slice(0, 50)}…` : rule.body)}`,
    );
  if (rule.contentType !== undefined) details.push(`contentType=${rule.contentType}`);
  if (rule.addHeaders !== undefined) details.push(`addHeaders=${JSON.stringify(rule.addHeaders)}`);
  if (rule.removeHeaders !== undefined)
    details.push(`removeHeaders=${rule.removeHeaders.join(',')}`);
  return `${rule.pattern}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

export const route: Handler<'browser_route'> = async (args, ctx) => {
  await ctx.ensureTab();
  const rule: RouteRule = {
    pattern: args.pattern,
    matcher: globToRegExp(args.pattern),
    status: args.status,
    body: args.body,
    contentType: args.contentType,
    addHeaders: parseHeaders(args.headers),
    removeHeaders: args.removeHeaders
      ?.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== ''),
  };
  for (const tab of await sessionTabs(ctx)) await addRoute(tab, rule);
  return textResult(`Route added for pattern: ${args.pattern}`);
};

export const routeList: Handler<'browser_route_list'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  const routes = listRoutes(tab.state);
  if (routes.length === 0) return textResult('No active routes.');
  return textResult(routes.map((r, i) => `${i + 1}. ${describe(r)}`).join('\n'));
};

export const unroute: Handler<'browser_unroute'> = async (args, ctx) => {
  // Every tab got the same routes; the count is of one tab's.
  let removed = 0;
  for (const tab of await sessionTabs(ctx))
    removed = Math.max(removed, await removeRoutes(tab, args.pattern));
  return textResult(
    args.pattern === undefined
      ? `Removed all ${removed} route(s).`
      : `Removed ${removed} route(s) for pattern: ${args.pattern}`,
  );
};

/** The routing area's handlers, by tool name. */
export const routingHandlers = {
  browser_route: route,
  browser_route_list: routeList,
  browser_unroute: unroute,
} satisfies AreaHandlers;
