/**
 * The Streamable HTTP transport (`--port`): real MCP clients connect by URL, each MCP session is
 * its own bridge session (its own tab group), and requests with a foreign Host or a cross-site
 * Origin are refused before they reach the MCP layer.
 */
import { test, expect, callOk, urlsInGroup } from '../harness.js';
import { stopProcess } from '@browser-agent/testkit/procfs';
import { connectByUrl, rawPost, startHttpServer } from '../httpClient.js';

test('MCP clients connect by URL, each with its own session; a forged Host or Origin is refused', async ({
  bridge,
  sandbox,
  site,
}) => {
  const env: Record<string, string> = {
    BROWSER_AGENT_HOME: sandbox.home,
    BROWSER_AGENT_PORT: String(sandbox.port),
  };
  const { child, url, token } = await startHttpServer(env);
  try {
    expect(url.hostname).toBe('127.0.0.1');
    expect(token).toBeDefined();
    const a = await connectByUrl(url, 'http-a', token);
    const b = await connectByUrl(url, 'http-b', token);
    const names = (await a.listTools()).tools.map((t) => t.name);
    expect(names).toContain('browser_navigate');
    // The first session spawned the daemon; the relay finds it on its next retry.
    await bridge.expectRelayState('connected');

    await callOk(a, 'browser_navigate', { url: site.url('/button.html') });
    await callOk(a, 'browser_click', { selector: '#button' });
    const clicked = await callOk(a, 'browser_evaluate', {
      function: "() => document.getElementById('out').textContent",
    });
    expect(clicked.text).toContain('Clicked 1 time');
    await callOk(b, 'browser_navigate', { url: site.url('/titled?title=Second') });

    // Two MCP sessions, two bridge sessions: each client's tab sits in its own group.
    const layout = await bridge.tabLayout();
    expect(urlsInGroup(layout, 'http-a')).toEqual([site.url('/button.html')]);
    expect(urlsInGroup(layout, 'http-b')).toEqual([site.url('/titled?title=Second')]);

    // DNS rebinding: the right address under a foreign name.
    const auth = { authorization: `Bearer ${token ?? ''}` };
    expect(await rawPost(url, { ...auth, host: `evil.example:${url.port}` })).toBe(403);
    // A page on another site posting to us from the user's browser.
    expect(await rawPost(url, { ...auth, origin: 'https://evil.example' })).toBe(403);
    // The same request with honest headers is served.
    expect(await rawPost(url, { ...auth, origin: `http://127.0.0.1:${url.port}` })).toBe(200);

    await a.close();
    await b.close();
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});
