/**
 * The session's origin policy, enforced in the extension: a blocked origin is refused for a
 * navigation, a redirect chain, a popup and a JS location change, and its page is never shown.
 */
import { test, expect, callOk, callTool, snapshot } from '../harness.js';

test.describe('origin policy', () => {
  test('a blocked origin is refused for navigations, redirects, popups and JS location changes', async ({
    bridge,
    site,
    otherSite,
  }) => {
    const blocked = new URL(otherSite.url('/titled?title=Forbidden')).origin;
    const client = await bridge.connectClient('policy-agent', {
      env: { BROWSER_AGENT_BLOCKED_ORIGINS: blocked },
    });
    const forbidden = otherSite.url('/titled?title=Forbidden');

    // A direct navigation.
    const direct = await callTool(client, 'browser_navigate', { url: forbidden });
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain('BLOCKED_URL');

    // A redirect chain that starts on an allowed site and ends on the blocked one.
    const hop2 = site.url(`/redirect?to=${encodeURIComponent(forbidden)}`);
    const chain = await callTool(client, 'browser_navigate', {
      url: site.url(`/redirect?to=${encodeURIComponent(hop2)}`),
    });
    expect(chain.isError).toBe(true);
    expect(chain.text).toContain('BLOCKED_URL');

    // Allowed pages still work.
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });

    // window.open to the blocked origin: the popup is closed, and the agent is told.
    const popup = await callOk(client, 'browser_evaluate', {
      function: `() => { window.open(${JSON.stringify(forbidden)}); return 'opened'; }`,
    });
    await expect
      .poll(async () => (await callOk(client, 'browser_tabs', { action: 'list' })).text, {
        timeout: 10_000,
      })
      .not.toContain(otherSite.url('/'));
    // The popup is never in the session, and it is closed a moment after it appears.
    await expect
      .poll(
        async () =>
          (await bridge.tabLayout()).tabs.map((t) => t.url).filter((u) => u.startsWith(blocked)),
        {
          timeout: 5_000,
        },
      )
      .toEqual([]);
    // The agent is told what was stopped, and never gets the page itself.
    expect(popup.text).toContain(`Blocked: ${forbidden}`);
    expect(popup.text).not.toContain('heading "Forbidden"');

    // A JS location change: the page stays where it was.
    await callTool(client, 'browser_evaluate', {
      function: `() => { location.href = ${JSON.stringify(forbidden)}; return 'moved'; }`,
    });
    await new Promise((r) => setTimeout(r, 1000));
    // The blocked page's content never reaches the agent (Chrome shows its own error page).
    const page = await snapshot(client);
    expect(page).not.toContain('heading "Forbidden"');
  });

  test('an allow list lets only the listed origins through', async ({
    bridge,
    site,
    otherSite,
  }) => {
    const client = await bridge.connectClient('allow-agent', {
      env: { BROWSER_AGENT_ALLOWED_ORIGINS: new URL(site.url('/')).origin },
    });
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    const refused = await callTool(client, 'browser_navigate', {
      url: otherSite.url('/button.html'),
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('BLOCKED_URL');
    expect(refused.text).toContain('not on the allowed list');
  });
});
