import { test, callTool } from '../harness.js';
import { EXTENSION_ORIGIN } from '@browser-agent/protocol';

test('trace chain', async ({ bridge, site }) => {
  const sw = bridge.context.serviceWorkers().find((w) => w.url().startsWith(EXTENSION_ORIGIN))!;
  await sw.evaluate(() => {
    const g = globalThis as unknown as { trace: string[] };
    g.trace = [];
    const d = chrome.debugger as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of ['attach', 'sendCommand', 'detach']) {
      const orig = d[name]!.bind(chrome.debugger);
      d[name] = async (...args: unknown[]) => {
        const t = performance.now();
        try { const r = await orig(...args); g.trace.push(`${Math.round(t)} ${name} ${JSON.stringify(args).slice(0, 120)} ok`); return r; }
        catch (e) { g.trace.push(`${Math.round(t)} ${name} ${JSON.stringify(args).slice(0, 120)} ERR ${String(e)}`); throw e; }
      };
    }
    chrome.debugger.onDetach.addListener((s, r) => g.trace.push(`onDetach ${JSON.stringify(s)} ${r}`));
  });
  const client = await bridge.connectClient();
  const r = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
  console.log(r);
  console.log(await sw.evaluate(() => (globalThis as unknown as { trace: string[] }).trace));
  console.log(bridge.context.pages().map((p) => p.url()));
});
