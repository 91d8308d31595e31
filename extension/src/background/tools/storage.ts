/**
 * Storage area's handlers: the Web Storage verbs of the current page, the older all-in-one
 * browser_storage, and the storage state (engine: ../storage/).
 */
import { textResult, type ToolResult, type WebStorageOutput } from '@browser-agent/protocol';
import type { AreaHandlers, Handler, HandlerContext } from '../handlerContext';
import { pageInfo } from '../loading/pageInfo';
import { capText, oneLine, untrustedSection } from '../common/text';
import { webStorage, type WebStorageArea, type WebStorageOp } from '../storage/webStorage';
import { readStorageState, writeStorageState } from '../storage/storageState';

const MAX_OUTPUT_CHARS = 50_000;

// Runs in the page: reads or clears one Web Storage area.
const WEB_STORAGE_FUNCTION = `function (area, clear) {
  const store = area === 'local' ? localStorage : sessionStorage;
  if (clear) { const n = store.length; store.clear(); return { cleared: n }; }
  const out = [];
  for (let i = 0; i < store.length; i++) { const k = store.key(i); out.push([k, store.getItem(k)]); }
  return { entries: out };
}`;

export const storage: Handler<'browser_storage'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cdp } = tab;
  const { url } = await pageInfo(cdp);
  if (args.area === 'cookies') {
    const { cookies } = await cdp.send('Network.getCookies', { urls: [url] });
    if (args.clear === true) {
      for (const c of cookies)
        await cdp.send('Network.deleteCookies', { name: c.name, domain: c.domain, path: c.path });
      return textResult(`Deleted ${cookies.length} cookie(s) of ${oneLine(url, 500)}.`);
    }
    if (cookies.length === 0) return textResult('No cookies.');
    // Cookie values are often session credentials: names and attributes only.
    const lines = cookies.map(
      (c) =>
        `- ${oneLine(c.name, 200)} (domain ${oneLine(c.domain, 200)}, path ${oneLine(c.path, 200)}${c.httpOnly ? ', httpOnly' : ''}${c.secure ? ', secure' : ''}; value hidden)`,
    );
    return textResult(untrustedSection('Cookies', lines.join('\n')));
  }
  const { result } = await cdp.send('Runtime.evaluate', {
    expression: `(${WEB_STORAGE_FUNCTION})(${JSON.stringify(args.area)}, ${args.clear === true})`,
    returnByValue: true,
  });
  const value: unknown = result.value;
  const record =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const name = `${args.area}Storage`;
  if (typeof record.cleared === 'number')
    return textResult(`Cleared ${record.cleared} item(s) of ${name}.`);
  const entries = Array.isArray(record.entries) ? (record.entries as unknown[]) : [];
  if (entries.length === 0) return textResult(`${name} is empty.`);
  const lines = entries.map((e: unknown) => {
    const pair: unknown[] = Array.isArray(e) ? (e as unknown[]) : [];
    return `${JSON.stringify(String(pair[0]))}: ${JSON.stringify(String(pair[1]))}`;
  });
  return textResult(untrustedSection(name, capText(lines.join('\n'), MAX_OUTPUT_CHARS), 'json'));
};

/** Keys and values are the page's: shown as key=value lines inside the untrusted fence. */
function itemLines(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `${oneLine(k, 1000)}=${v}`).join('\n');
}

/** The structured result of list and get: items capped like the text. */
function itemsData(
  origin: string | undefined,
  entries: readonly (readonly [string, string])[],
): WebStorageOutput {
  let size = 0;
  const items: WebStorageOutput['items'] = [];
  for (const [key, value] of entries) {
    size += key.length + value.length;
    if (size > MAX_OUTPUT_CHARS && items.length > 0) break;
    items.push({ key, value: value.slice(0, MAX_OUTPUT_CHARS) });
  }
  return origin === undefined ? { items } : { origin, items };
}

/** The five verbs of one Web Storage area of the current page. */
function webStorageHandlers(area: WebStorageArea) {
  const name = `${area}Storage`;
  const run = async (ctx: HandlerContext, req: WebStorageOp) =>
    webStorage((await ctx.currentTab()).cdp, area, req);
  const list = async (_args: unknown, ctx: HandlerContext): Promise<ToolResult> => {
    const { entries = [], origin } = await run(ctx, { op: 'list' });
    const data = itemsData(origin, entries);
    if (entries.length === 0) return textResult(`No ${name} items found`, data);
    return textResult(untrustedSection(name, capText(itemLines(entries), MAX_OUTPUT_CHARS)), data);
  };
  const get = async (args: { key: string }, ctx: HandlerContext): Promise<ToolResult> => {
    const { value, origin } = await run(ctx, { op: 'get', key: args.key });
    if (value === null || value === undefined)
      return textResult(
        `${name} key ${JSON.stringify(oneLine(args.key, 200))} not found`,
        itemsData(origin, []),
      );
    return textResult(
      untrustedSection(name, capText(itemLines([[args.key, value]]), MAX_OUTPUT_CHARS)),
      itemsData(origin, [[args.key, value]]),
    );
  };
  const set = async (
    args: { key: string; value: string },
    ctx: HandlerContext,
  ): Promise<ToolResult> => {
    const { origin } = await run(ctx, { op: 'set', key: args.key, value: args.value });
    return textResult(`Set ${name} item ${JSON.stringify(oneLine(args.key, 200))} of ${origin}.`);
  };
  const remove = async (args: { key: string }, ctx: HandlerContext): Promise<ToolResult> => {
    const { count, origin } = await run(ctx, { op: 'delete', key: args.key });
    const key = JSON.stringify(oneLine(args.key, 200));
    return textResult(
      count === 0
        ? `${name} of ${origin} had no item ${key}; nothing deleted.`
        : `Deleted ${name} item ${key} of ${origin}.`,
    );
  };
  const clear = async (_args: unknown, ctx: HandlerContext): Promise<ToolResult> => {
    const { count = 0, origin } = await run(ctx, { op: 'clear' });
    return textResult(`Cleared ${count} ${name} item(s) of ${origin}.`);
  };
  return { list, get, set, remove, clear };
}

const local = webStorageHandlers('local');
const session = webStorageHandlers('session');

export const storageState: Handler<'browser_storage_state'> = async (_args, ctx) => {
  const state = await readStorageState(ctx);
  // The server writes the state to a file and shows its path in place of this line: cookie
  // values stay out of the reply.
  return {
    content: [
      {
        type: 'text',
        text: `Read the storage state: ${state.cookies.length} cookie(s), localStorage of ${state.origins.length} origin(s).`,
      },
    ],
    serverData: { storageState: state },
  };
};

export const setStorageState: Handler<'browser_set_storage_state'> = async (args, ctx) => {
  if (args.state === undefined) {
    return textResult(
      'No storage state to restore: the MCP server reads the file named by filename.',
    );
  }
  const counts = await writeStorageState(ctx, args.state);
  const lines = [
    `Storage state restored from ${oneLine(args.filename, 500)}: ${counts.cookies} cookie(s), localStorage of ${counts.origins} origin(s); ${counts.cleared} earlier cookie(s) of this session's sites cleared.`,
  ];
  if (counts.skipped.length > 0)
    lines.push(
      `Skipped (the session's origin policy, or refused): ${counts.skipped
        .slice(0, 20)
        .map((s) => oneLine(s, 200))
        .join('; ')}`,
    );
  return textResult(lines.join('\n'));
};

/** The storage area's handlers, by tool name. */
export const storageHandlers = {
  browser_storage: storage,
  browser_localstorage_list: local.list,
  browser_localstorage_get: local.get,
  browser_localstorage_set: local.set,
  browser_localstorage_delete: local.remove,
  browser_localstorage_clear: local.clear,
  browser_sessionstorage_list: session.list,
  browser_sessionstorage_get: session.get,
  browser_sessionstorage_set: session.set,
  browser_sessionstorage_delete: session.remove,
  browser_sessionstorage_clear: session.clear,
  browser_storage_state: storageState,
  browser_set_storage_state: setStorageState,
} satisfies AreaHandlers;
