import { callTool, test } from '../harness.js';
test('debug', async ({ bridge, site }) => {
  const client = await bridge.connectClient('careful-agent', { flags: ['--permission-mode', 'ask'] });
  const r = await callTool(client, 'browser_navigate', { url: site.url('/shop.html') });
  console.log('OUTCOME', r.isError, r.text.slice(0, 500));
  const s = await bridge.extensionWorker().evaluate(async () => {
    const c = (globalThis as any).chrome;
    return JSON.stringify(await c.storage.session.get(null)).slice(0, 1500);
  });
  console.log('SESSION', s);
});
