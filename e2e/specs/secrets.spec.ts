/**
 * Password, payment-card and one-time-code values never leave the page through the bridge: not
 * in any tool's output, the side panel's log, the write-ahead log, the daemon's log or the
 * server's stderr. (browser_evaluate runs the agent's own code and is documented as unfiltered.)
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callTool, snapshot, findRef } from '../harness.js';
import { agentOn } from '../steps.js';

const TYPED_PASSWORD = 'typed-S3cret!pw';
const TYPED_OTP = '246810';
const SECRETS = ['hunter2-initial', '4111111111111111', TYPED_PASSWORD, TYPED_OTP];

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

test('secret field values are missing from every output', async ({ bridge, sandbox, site }) => {
  const client = await agentOn(bridge, site.url('/controls.html'), {
    name: 'secret-keeper',
    flags: ['--caps', 'devtools,network,storage'],
  });
  const page = await snapshot(client);
  const typed = await callOk(client, 'browser_type', {
    ref: findRef(page, 'textbox', 'Password'),
    text: TYPED_PASSWORD,
  });
  const otp = await callOk(client, 'browser_type', {
    ref: findRef(page, 'textbox', 'One-time code'),
    text: TYPED_OTP,
  });

  const outputs: Array<[string, string]> = [
    ['type password', typed.text],
    ['type otp', otp.text],
    ['snapshot', await snapshot(client)],
    ['find', (await callOk(client, 'browser_find', { text: 'hunter' })).text],
    ['get_text', (await callOk(client, 'browser_get_text', {})).text],
    ['get_html', (await callOk(client, 'browser_get_html', {})).text],
    ['console', (await callOk(client, 'browser_console_messages', {})).text],
    ['network', (await callOk(client, 'browser_network_requests', {})).text],
    ['tabs', (await callOk(client, 'browser_tabs', { action: 'list' })).text],
    ['storage', (await callTool(client, 'browser_storage', { area: 'local' })).text],
  ];
  // The page really holds the values (so the checks below are not vacuous).
  const held = await (
    await bridge.pageWithUrl(site.url('/controls.html'))
  ).evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value).join('|'));
  // (hunter2-initial was typed over; it is still in the HTML's value attribute.)
  for (const secret of [TYPED_PASSWORD, '4111111111111111', TYPED_OTP]) {
    expect(held, `the page holds ${secret}`).toContain(secret);
  }

  for (const [where, text] of outputs) {
    for (const secret of SECRETS)
      expect(text, `${where} must not show ${secret}`).not.toContain(secret);
  }
  const panelLog = (await bridge.relay.locator('#log').textContent()) ?? '';
  expect(panelLog).toContain('browser_type');
  for (const secret of SECRETS)
    expect(panelLog, `side panel log shows ${secret}`).not.toContain(secret);

  const stderr = sandbox.serverStderr(client);
  for (const file of allFiles(sandbox.home).filter((f) => /\.(log|jsonl|json)$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    for (const secret of SECRETS)
      expect(text, `${file} must not hold ${secret}`).not.toContain(secret);
  }
  for (const secret of SECRETS) expect(stderr).not.toContain(secret);
  expect(readFileSync(path.join(sandbox.home, 'wal', 'calls.jsonl'), 'utf8')).toContain(
    'browser_type',
  );
});
