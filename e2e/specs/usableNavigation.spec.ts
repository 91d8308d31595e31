/**
 * Navigation returns when the page is usable (#17): DOMContentLoaded and a capped settle, never
 * the load event of a subresource that does not answer; what is still loading is named. Apps
 * that boot after DOMContentLoaded (modules fetched one after another) are waited for, and so
 * is a navigation a click's handler starts a moment later.
 */
import { callOk, expect, snapshot, test } from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('navigation returns when the page is usable', () => {
  test('a page with a hung subresource: navigate, back, forward and reload return, naming what still loads', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/titled?title=Start'));
    const nav = await callOk(client, 'browser_navigate', { url: site.url('/hanging-pixel') });
    expect(nav.text).toContain('- Page Title: "Hanging pixel"');
    expect(nav.text).toContain('Still loading: 1 request(s) (1 image)');
    expect(nav.text).toContain('/hang/pixel.gif');
    expect(await snapshot(client)).toContain('button "Ready button"');

    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Elsewhere') });
    const back = await callOk(client, 'browser_navigate_back', {});
    expect(back.text).toContain('- Page Title: "Hanging pixel"');
    const forward = await callOk(client, 'browser_navigate_forward', {});
    expect(forward.text).toContain('- Page Title: "Elsewhere"');
    await callOk(client, 'browser_navigate_back', {});
    const reload = await callOk(client, 'browser_reload', {});
    expect(reload.text).toContain('- Page Title: "Hanging pixel"');
    expect(reload.text).toContain('/hang/pixel.gif');

    // A click that navigates to such a page reports the navigation, not a page still loading.
    const clicked = await callOk(client, 'browser_click', {
      role: 'link',
      name: 'Same page again',
    });
    expect(clicked.text).toContain('The page navigated.');
    expect(clicked.text).toContain('again=1');
  });

  test('an app that fetches its modules after DOMContentLoaded is shown booted', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/titled?title=Start'));
    const nav = await callOk(client, 'browser_navigate', { url: site.url('/late-boot') });
    expect(nav.text).toContain('/hang/font.woff2');
    const snap = await snapshot(client);
    expect(snap).toContain('button "Booted button"');
    expect(snap).not.toContain('Loading…');
  });

  test("a navigation a click's handler starts 100 ms later is waited for", async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/late-navigation'));
    const clicked = await callOk(client, 'browser_click', { role: 'button', name: 'Go later' });
    expect(clicked.text).toContain('The page navigated.');
    expect(clicked.text).toContain('- Page Title: "Arrived late"');
  });
});
