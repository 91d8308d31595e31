import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('dialogs, tabs and navigation', () => {
  test('alert, confirm and prompt never hang a call, block input with DIALOG_OPEN and are listed until handled', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/dialogs.html');
    const client = await agentOn(bridge, url);
    const page = await bridge.pageWithUrl(url);
    // Playwright dismisses dialogs of pages it sees unless someone listens; here nobody but the
    // agent may answer them.
    page.on('dialog', () => undefined);

    const clicked = await callOk(client, 'browser_click', { role: 'button', name: 'Alert' });
    expect(clicked.text).toContain('### Modal state');
    expect(clicked.text).toContain('alert dialog "Hello from alert"');
    const blocked = await callTool(client, 'browser_click', { role: 'button', name: 'Confirm' });
    expect(blocked.text).toContain(ErrorCode.DIALOG_OPEN);
    expect(blocked.text).toContain('An alert dialog "Hello from alert"');
    expect(blocked.text).toContain('browser_handle_dialog');
    // Reading tools still work and keep listing the dialog.
    const tabs = await callOk(client, 'browser_tabs', { action: 'list' });
    expect(tabs.text).toContain('alert dialog');
    // Tabs are beside the dialog's page: a new one opens and loads while the alert waits (#27).
    const opened = await callOk(client, 'browser_tabs', {
      action: 'new',
      url: site.url('/titled?title=Beside'),
    });
    expect(opened.text).toContain('Beside');
    await callOk(client, 'browser_tabs', { action: 'close' });
    await callOk(client, 'browser_tabs', { action: 'select', index: 0 });
    await callOk(client, 'browser_handle_dialog', { accept: true });
    // The click answered DIALOG_OPEN above does not land once the alert is gone (CI saw it open
    // the confirm dialog: its handler went on after its answer).
    expect((await callOk(client, 'browser_snapshot', {})).text).not.toContain('confirm dialog');

    await callOk(client, 'browser_click', { role: 'button', name: 'Confirm' });
    await callOk(client, 'browser_handle_dialog', { accept: false });
    await expect(page.locator('#r')).toHaveText('confirm: false');

    const prompted = await callOk(client, 'browser_click', { role: 'button', name: 'Prompt' });
    expect(prompted.text).toContain('prompt dialog "Your name?" (default "Anon")');
    await callOk(client, 'browser_handle_dialog', { accept: true, promptText: 'Grace' });
    await expect(page.locator('#r')).toHaveText('prompt: Grace');

    const none = await callTool(client, 'browser_handle_dialog', { accept: true });
    expect(none.isError).toBe(true);
  });

  test('a beforeunload dialog on navigation is reported and can be accepted', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/dialogs.html'));
    (await bridge.pageWithUrl(site.url('/dialogs.html'))).on('dialog', () => undefined);
    await callOk(client, 'browser_click', { role: 'button', name: 'Arm beforeunload' });
    const nav = await callTool(client, 'browser_navigate', {
      url: site.url('/titled?title=After'),
    });
    expect(nav.text).toContain('beforeunload dialog');
    // Held, not done: the result says so rather than "Navigated to" (#27).
    expect(nav.text).toContain('Not navigated yet');
    expect(nav.text).not.toContain('Navigated to');
    await callOk(client, 'browser_handle_dialog', { accept: true });
    await expect
      .poll(async () => (await callOk(client, 'browser_tabs', { action: 'list' })).text)
      .toContain('After');

    // Reload waits on the dialog too instead of timing out.
    await callOk(client, 'browser_navigate', { url: site.url('/dialogs.html') });
    await callOk(client, 'browser_click', { role: 'button', name: 'Arm beforeunload' });
    const reload = await callOk(client, 'browser_reload', {});
    expect(reload.text).toContain('beforeunload dialog');
    await callOk(client, 'browser_handle_dialog', { accept: false });
    expect((await callOk(client, 'browser_snapshot', {})).text).toContain('button "Armed"');

    // Closing the tab is asked too: the close answers it "leave" and says so. It used to wait on a
    // dialog nobody could answer (the debugger was detached first) until the call timed out.
    await callOk(client, 'browser_tabs', { action: 'new', url: site.url('/titled?title=Kept') });
    await callOk(client, 'browser_tabs', { action: 'select', index: 0 });
    const closed = await callOk(client, 'browser_tabs', { action: 'close' });
    expect(closed.text).toContain('Its page asked before leaving');
    expect(closed.text).not.toContain('dialogs.html');
    expect(closed.text).toContain('Kept');
  });

  test('a session that ends closes its tabs, one whose page asks before leaving included', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/dialogs.html');
    const client = await agentOn(bridge, url);
    const asking = await bridge.pageWithUrl(url);
    asking.on('dialog', () => undefined);
    await callOk(client, 'browser_click', { role: 'button', name: 'Arm beforeunload' });
    const second = site.url('/titled?title=Second');
    await callOk(client, 'browser_tabs', { action: 'new', url: second });
    const after = await bridge.pageWithUrl(second);
    await client.close();
    // With "close" on session end (the default) both go; the armed page held the remove, and the
    // tab after it, before.
    await expect.poll(() => asking.isClosed(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => after.isClosed(), { timeout: 15_000 }).toBe(true);
  });

  test('pages that open tabs: reported, joined to the session, selectable; background tabs keep focus', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/dialogs.html'));
    const link = await callOk(client, 'browser_click', { role: 'link', name: 'Open in new tab' });
    expect(link.text).toMatch(/opened a new tab as tab 1: .*Opened%20by%20link/);
    const popup = await callOk(client, 'browser_click', { role: 'button', name: 'Open popup' });
    expect(popup.text).toMatch(/opened a new tab as tab 2: .*Opened%20by%20script/);
    await callOk(client, 'browser_tabs', { action: 'select', index: 2 });
    await expect
      .poll(async () => (await callOk(client, 'browser_snapshot', {})).text)
      .toContain('heading "Opened by script"');

    const bg = await callOk(client, 'browser_tabs', {
      action: 'new',
      url: site.url('/titled?title=Background'),
      background: true,
    });
    expect(bg.text).toContain('in the background');
    expect(bg.text).toMatch(/\[current\] Opened by script/);
    expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Opened by script');
  });

  test('back, forward, reload, resize and close', async ({ bridge, site }) => {
    const client = await agentOn(bridge, site.url('/titled?title=One'));
    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Two') });
    expect((await callOk(client, 'browser_navigate_back', {})).text).toContain('"One"');
    expect((await callOk(client, 'browser_navigate_forward', {})).text).toContain('"Two"');
    const noNext = await callTool(client, 'browser_navigate_forward', {});
    expect(noNext.text).toContain(ErrorCode.NAVIGATION_FAILED);
    expect((await callOk(client, 'browser_reload', {})).text).toContain('Reloaded');
    const restricted = await callTool(client, 'browser_navigate', { url: 'chrome://settings' });
    expect(restricted.text).toContain(ErrorCode.RESTRICTED_URL);

    const page = await bridge.pageWithUrl(site.url('/titled?title=Two'));
    const dev = await bridge.connectClient('resizer');
    void dev;
    const closed = await callOk(client, 'browser_close', {});
    expect(closed.text).toContain('Closed 1 tab');
    await expect.poll(() => page.isClosed()).toBe(true);
    const after = await callTool(client, 'browser_snapshot', {});
    expect(after.text).toContain(ErrorCode.NO_TAB);
  });

  test('a second alert right after the first is reported, and so is an alert from a timer a click set', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/more-dialogs');
    const client = await agentOn(bridge, url);
    (await bridge.pageWithUrl(url)).on('dialog', () => undefined);

    const clicked = await callOk(client, 'browser_click', { role: 'button', name: 'Two alerts' });
    expect(clicked.text).toContain('alert dialog "First alert"');
    const first = await callOk(client, 'browser_handle_dialog', { accept: true });
    expect(first.text).toContain('alert dialog "Second alert"');
    expect(first.text).toContain('### Modal state');
    const second = await callOk(client, 'browser_handle_dialog', { accept: true });
    expect(second.text).toContain('Accepted the alert dialog "Second alert"');
    expect(second.text).not.toContain('### Modal state');

    const soon = await callOk(client, 'browser_click', { role: 'button', name: 'Alert soon' });
    expect(soon.text).toContain('alert dialog "Timer alert"');
    await callOk(client, 'browser_handle_dialog', { accept: true });
  });

  test('after browser_close, navigate opens a tab that the next calls use', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/titled?title=Before%20close'));
    await callOk(client, 'browser_close', {});
    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=After%20close') });
    const snap = await callOk(client, 'browser_snapshot', {});
    expect(snap.text).toContain('heading "After close"');
    const tabs = await callOk(client, 'browser_tabs', { action: 'list' });
    expect(tabs.text).toContain('After close');
  });
});
