import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('reading tools', () => {
  test('get_text gives the main content as Markdown; get_html is capped and hides secrets', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/article.html'));
    const text = (await callOk(client, 'browser_get_text', {})).text;
    expect(text).toContain('### Page text (untrusted page content)');
    expect(text).toContain('# The quiet history of the paperclip');
    expect(text).toContain('[steel wire](https://example.com/wire)');
    expect(text).not.toContain('Copyright footer text');
    expect(text).not.toContain('never-show-this');

    // get_html is in the devtools group: listed only with --caps devtools.
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).not.toContain('browser_get_html');
    const dev = await bridge.connectClient('dev-client');
    expect((await dev.listTools()).tools.map((t) => t.name)).not.toContain('browser_get_html');
  });

  test('screenshots: element, jpeg, downscaled, saved to a file', async ({
    bridge,
    site,
    sandbox,
  }) => {
    const client = await sandbox.startServer({ flags: [] });
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/controls.html') });
    const element = await callOk(client, 'browser_take_screenshot', {
      role: 'button',
      name: 'Submit',
    });
    expect(element.images).toHaveLength(1);
    expect(element.text).toMatch(/Screenshot of button "Submit" \[e\d+\], \d+×\d+ px/);
    const small = await callOk(client, 'browser_take_screenshot', {
      fullPage: true,
      type: 'jpeg',
      maxDimension: 300,
    });
    expect(small.images[0]?.mimeType).toBe('image/jpeg');
    expect(small.text).toMatch(/downscaled/);
    // Without an output directory, a file name lands in the private one under the state dir.
    const file = path.join(sandbox.home, 'output', 'page.png');
    const saved = await callOk(client, 'browser_take_screenshot', { filename: 'page.png' });
    expect(saved.text).toContain(`Saved to ${file}`);
    const bytes = await readFile(file);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  test('evaluate with a target; console since last call; network requests with --caps network', async ({
    bridge,
    site,
    sandbox,
  }) => {
    const client = await sandbox.startServer({ flags: ['--caps', 'network,storage,devtools'] });
    await bridge.expectRelayState('connected');
    const url = site.url('/network.html');
    await callOk(client, 'browser_navigate', { url });
    const value = await callOk(client, 'browser_evaluate', {
      function: '(el) => el.textContent',
      role: 'heading',
      name: 'Network',
    });
    expect(value.text).toContain('"Network"');

    const first = await callOk(client, 'browser_console_messages', { sinceLastCall: true });
    expect(first.text).toContain('[log] page loaded 42');
    expect(first.text).toContain('[error] something failed');
    const errorsOnly = await callOk(client, 'browser_console_messages', { level: 'error' });
    expect(errorsOnly.text).not.toContain('careful');

    await callOk(client, 'browser_click', { role: 'button', name: 'Fetch data' });
    const next = await callOk(client, 'browser_console_messages', { sinceLastCall: true });
    expect(next.text).toContain('fetched 2');
    expect(next.text).not.toContain('page loaded');

    const all = await callOk(client, 'browser_network_requests', {});
    expect(all.text).toContain('/api/items');
    const posts = await callOk(client, 'browser_network_requests', { method: 'POST' });
    expect(posts.text).toContain('/api/submit');
    expect(posts.text).not.toContain('/api/items');
    const missing = await callOk(client, 'browser_network_requests', { status: 404 });
    expect(missing.text).toContain('/api/missing');
    const fetches = await callOk(client, 'browser_network_requests', { type: 'Fetch' });
    expect(fetches.text).not.toContain('network.html');
    const id = /\[([^\]]+)\] POST/.exec(posts.text)?.[1] ?? '';
    const detail = await callOk(client, 'browser_network_request', { id });
    expect(detail.text).toContain('{"hello":"world"}');
    // The page never reads this response; its body is still shown (issue #3).
    expect(detail.text).toContain('Response body (application/json):\n{"ok":true}');
    expect(detail.text.toLowerCase()).toContain('content-type');
    const unknown = await callTool(client, 'browser_network_request', { id: 'nope' });
    expect(unknown.text).toContain(ErrorCode.ELEMENT_NOT_FOUND);

    const html = await callOk(client, 'browser_get_html', { selector: 'h1' });
    expect(html.text).toContain('<h1>Network</h1>');
    const capped = await callOk(client, 'browser_get_html', { maxChars: 100 });
    expect(capped.text).toContain('truncated');

    await callOk(client, 'browser_evaluate', {
      function: "() => { localStorage.setItem('theme', 'dark'); document.cookie = 'sid=abc123'; }",
    });
    const local = await callOk(client, 'browser_storage', { area: 'local' });
    expect(local.text).toContain('"theme": "dark"');
    const cookies = await callOk(client, 'browser_storage', { area: 'cookies' });
    expect(cookies.text).toContain('sid');
    expect(cookies.text).not.toContain('abc123');
    await callOk(client, 'browser_storage', { area: 'local', clear: true });
    expect((await callOk(client, 'browser_storage', { area: 'local' })).text).toContain('empty');
  });

  test('wait_for: selector states, network idle, delayed SPA content', async ({ bridge, site }) => {
    const client = await agentOn(bridge, site.url('/spa.html'));
    await callOk(client, 'browser_wait_for', { text: 'Delayed content arrived' });
    await callOk(client, 'browser_wait_for', { selector: 'main h2', state: 'visible' });
    await callOk(client, 'browser_wait_for', { selector: '#nothing', state: 'detached' });
    await callOk(client, 'browser_wait_for', { networkIdle: true });
    const timeout = await callTool(client, 'browser_wait_for', { selector: '#never', timeout: 1 });
    expect(timeout.text).toContain(ErrorCode.TIMEOUT);
    const two = await callTool(client, 'browser_wait_for', { text: 'a', time: 1 });
    expect(two.text).toContain(ErrorCode.INVALID_ARGS);
  });
});
