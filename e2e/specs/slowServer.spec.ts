/**
 * Issue #27.1: a server that is slow to send its first byte is not a stuck tab. The navigation
 * waits under the navigation timeout (reporting progress), the tab is never replaced for it, and
 * a server that never answers is named as such when that timeout runs out.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, expect, test } from '../harness.js';

/** Above any first byte these tests wait for: the call's own deadline is what is under test. */
const CLIENT_TIMEOUT_MS = 120_000;

/** browser_navigate with progress asked for; the text, whether it failed, and the progress seen. */
async function navigateWithProgress(client: Client, url: string) {
  const progress: string[] = [];
  const raw = await client.callTool({ name: 'browser_navigate', arguments: { url } }, undefined, {
    timeout: CLIENT_TIMEOUT_MS,
    onprogress: (p) => progress.push(p.message ?? ''),
  });
  const result = CallToolResultSchema.parse(raw);
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true, progress };
}

test.describe('a slow server is not a stuck tab (#27.1)', () => {
  test('pages whose first byte comes after 8 s and 15 s open; a server that never answers is named at the navigation timeout', async ({
    bridge,
    site,
  }) => {
    test.setTimeout(150_000);
    const before = site.url('/titled?title=Before');
    const client = await bridge.connectClient('slow-server', {
      flags: ['--timeout-navigation', '20000'],
    });
    await callOk(client, 'browser_navigate', { url: before });

    for (const delay of [8_000, 15_000]) {
      const slow = await navigateWithProgress(client, site.url(`/slow-page?delay=${delay}`));
      expect(slow.isError, slow.text).toBe(false);
      expect(slow.text).toContain('- Page Title: "Slow"');
      // The wait told the client it was still going.
      expect(slow.progress.some((m) => m.includes('/slow-page'))).toBe(true);
    }

    const hung = site.url('/hang/first-byte');
    const never = await navigateWithProgress(client, hung);
    expect(never.isError).toBe(true);
    expect(never.text).toContain(ErrorCode.NAVIGATION_TIMEOUT);
    expect(never.text).toContain(`${hung} did not answer within 20 s`);
    expect(never.text).not.toContain('stopped answering');
    // The tab was left alone: the page before the hung navigation is still there.
    const snap = await callOk(client, 'browser_snapshot', {});
    expect(snap.text).toContain('- Page Title: "Slow"');
  });

  test('a page whose first byte comes after 40 s opens under a raised navigation timeout', async ({
    bridge,
    site,
  }) => {
    test.setTimeout(150_000);
    const client = await bridge.connectClient('slower-server', {
      flags: ['--timeout-navigation', '60000'],
    });
    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Before') });
    const slow = await navigateWithProgress(client, site.url('/slow-page?delay=40000'));
    expect(slow.isError, slow.text).toBe(false);
    expect(slow.text).toContain('- Page Title: "Slow"');
  });
});
