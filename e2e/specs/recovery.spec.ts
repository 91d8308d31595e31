import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('recovery (#16)', () => {
  test('a dialog that opened between calls, and a second one after it, are reported at once, not as a timeout', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/timer-alerts.html');
    // Only the agent may answer the page's dialogs: Playwright dismisses a dialog of a page
    // with no 'dialog' listener, so the listener is there before the agent's tab opens (the
    // first alert comes 300 ms after load, often before the test could find the page).
    bridge.context.on('page', (p) => p.on('dialog', () => undefined));
    const client = await agentOn(bridge, url);
    const page = await bridge.pageWithUrl(url);
    await page.waitForTimeout(1_000);

    const first = await callTool(client, 'browser_snapshot', {});
    expect(first.text).toContain(ErrorCode.DIALOG_OPEN);
    expect(first.text).toContain('First timer alert');
    expect(first.text).not.toContain(ErrorCode.TIMEOUT);
    await callOk(client, 'browser_handle_dialog', { accept: true });

    const second = await callTool(client, 'browser_evaluate', { function: '() => 1 + 1' });
    expect(second.text).toContain(ErrorCode.DIALOG_OPEN);
    expect(second.text).toContain('Second timer alert');
    await callOk(client, 'browser_handle_dialog', { accept: true });

    // The agent carries on: the page ran on after both dialogs.
    const snap = await callOk(client, 'browser_snapshot', {});
    expect(snap.text).toContain('both handled');
  });
});
