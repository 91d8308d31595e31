/**
 * The config file (`--config`), end to end: a bad file stops the server with exit code 2 and a
 * message naming the key; the origin lists, viewport and timeouts it sets take effect in the
 * extension; a flag beats an environment variable, which beats the file.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callTool } from '../harness.js';
import { agentOn } from '../steps.js';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';

function writeConfig(dir: string, name: string, config: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

test.describe('config file', () => {
  test('a bad config stops the server with exit code 2, a message naming the key, and nothing on stdout', ({
    sandbox,
  }) => {
    const cases: Array<{ config: unknown; expected: string }> = [
      {
        config: { viewport: { width: 'wide', height: 720 } },
        expected: 'config viewport.width: expected a positive integer, got "wide"',
      },
      { config: { viewprt: { width: 800 } }, expected: 'unknown key viewprt' },
      { config: { browser: { hedless: true } }, expected: 'unknown key browser.hedless' },
      {
        config: { transactions: { maxCheckpoints: -1 } },
        expected:
          'config transactions.maxCheckpoints: expected a whole number from 1 to 100, got -1',
      },
      { config: '{"viewport": ', expected: 'not valid JSON' },
    ];
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [SERVER_BIN, ...args], {
        env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home, ...env },
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
    for (const [i, { config, expected }] of cases.entries()) {
      const file = writeConfig(sandbox.root, `bad-${i}.json`, config);
      const result = run(['--config', file]);
      expect(result.status, `exit code for ${JSON.stringify(config)}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(expected);
    }
    const missing = run(['--config', path.join(sandbox.root, 'nope.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('nope.json: cannot be read (no such file)');

    const badEnv = run([], { BROWSER_AGENT_VIEWPORT: 'wide' });
    expect(badEnv.status).toBe(2);
    expect(badEnv.stderr).toContain('BROWSER_AGENT_VIEWPORT: expected WIDTHxHEIGHT');

    const attached = writeConfig(sandbox.root, 'attached.json', { browser: { launch: false } });
    const stray = run(['--config', attached, '--isolated']);
    expect(stray.status, 'a launch flag with launch mode off').toBe(2);
    expect(stray.stdout).toBe('');
    expect(stray.stderr).toContain('--isolated only applies in launch mode');
  });

  test('a blocked origin from the config file is refused for a navigation, a redirect and a popup', async ({
    bridge,
    sandbox,
    site,
    otherSite,
  }) => {
    const forbidden = otherSite.url('/titled?title=Forbidden');
    const config = writeConfig(sandbox.root, 'blocked.json', {
      blockedOrigins: [new URL(forbidden).origin],
    });
    const client = await bridge.connectClient('config-policy', { flags: ['--config', config] });

    const direct = await callTool(client, 'browser_navigate', { url: forbidden });
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain('BLOCKED_URL');

    const redirect = await callTool(client, 'browser_navigate', {
      url: site.url(`/redirect?to=${encodeURIComponent(forbidden)}`),
    });
    expect(redirect.isError).toBe(true);
    expect(redirect.text).toContain('BLOCKED_URL');

    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    const popup = await callOk(client, 'browser_evaluate', {
      function: `() => { window.open(${JSON.stringify(forbidden)}); return 'opened'; }`,
    });
    expect(popup.text).toContain(`Blocked: ${forbidden}`);
    await expect
      .poll(
        async () =>
          (await bridge.tabLayout()).tabs
            .map((t) => t.url)
            .filter((u) => u.startsWith(otherSite.origin)),
        { timeout: 10_000 },
      )
      .toEqual([]);
  });

  test('viewport and timeouts from the config take effect; a flag beats env beats the file', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const config = writeConfig(sandbox.root, 'tabs.json', {
      viewport: { width: 800, height: 600 },
    });
    const viewportOf = async (client: Parameters<typeof callOk>[0]) => {
      await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
      const out = await callOk(client, 'browser_evaluate', {
        function: '() => `${innerWidth}x${innerHeight}`',
      });
      return /(\d+x\d+)/.exec(out.text)?.[1];
    };

    const fromFile = await bridge.connectClient('config-file', { flags: ['--config', config] });
    expect(await viewportOf(fromFile)).toBe('800x600');

    // The navigation timeout: a page that takes 15 s is given up after the configured 2 s.
    const navConfig = writeConfig(sandbox.root, 'nav.json', { timeouts: { navigationMs: 2000 } });
    const navClient = await bridge.connectClient('config-nav', { flags: ['--config', navConfig] });
    const slow = await callTool(navClient, 'browser_navigate', {
      url: site.url('/slow-page?delay=15000'),
    });
    expect(slow.isError).toBe(true);
    expect(slow.text).toContain('NAVIGATION_TIMEOUT');
    expect(slow.text).toContain('within 2 s');

    // The action timeout: a click whose handler holds the page for 5 s fails after 1 s.
    const actionConfig = writeConfig(sandbox.root, 'action.json', { timeouts: { actionMs: 1000 } });
    const actionClient = await agentOn(bridge, site.url('/busy?ms=5000'), {
      name: 'config-action',
      flags: ['--config', actionConfig],
    });
    const busy = await callTool(actionClient, 'browser_click', { selector: '#busy' });
    expect(busy.isError).toBe(true);
    expect(busy.text).toContain('TIMEOUT');
    expect(busy.text).toContain('within 1000 ms');

    const fromEnv = await bridge.connectClient('config-env', {
      flags: ['--config', config],
      env: { BROWSER_AGENT_VIEWPORT: '900x650' },
    });
    expect(await viewportOf(fromEnv)).toBe('900x650');

    const fromFlag = await bridge.connectClient('config-flag', {
      flags: ['--config', config, '--viewport', '1000x700'],
      env: { BROWSER_AGENT_VIEWPORT: '900x650' },
    });
    expect(await viewportOf(fromFlag)).toBe('1000x700');

    // With the defaults (5 s), the same busy click goes through.
    const defaults = await agentOn(bridge, site.url('/busy?ms=1500'), { name: 'config-defaults' });
    const patient = await callOk(defaults, 'browser_click', { selector: '#busy' });
    expect(patient.text).toContain('Clicked');
  });

  test('file:// URLs are refused unless the config allows them', async ({ bridge, sandbox }) => {
    const page = path.join(sandbox.root, 'local.html');
    writeFileSync(page, '<!doctype html><title>Local file</title><h1>Local file</h1>');
    const url = `file://${page}`;
    const client = await bridge.connectClient('config-file-urls');
    const refused = await callTool(client, 'browser_navigate', { url });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('RESTRICTED_URL');
    expect(refused.text).toContain('--allow-file-urls');

    const config = writeConfig(sandbox.root, 'files.json', { allowFileUrls: true });
    const allowed = await bridge.connectClient('config-file-urls-on', {
      flags: ['--config', config],
    });
    await callOk(allowed, 'browser_navigate', { url });
    const title = await callOk(allowed, 'browser_evaluate', { function: '() => document.title' });
    expect(title.text).toContain('Local file');
  });
});
