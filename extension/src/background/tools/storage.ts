import { textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { pageInfo } from '../loading/pageInfo';
import { capText, oneLine, untrustedSection } from '../common/text';

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

/** The storage area's handlers, by tool name. */
export const storageHandlers = {
  browser_storage: storage,
} satisfies AreaHandlers;
