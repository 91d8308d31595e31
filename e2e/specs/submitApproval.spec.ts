/**
 * Issue #7's ask-before-submit: with the setting on, an agent's submit of a form with a password
 * field waits for the user's Allow / Deny in the side panel; with it off, nothing is asked.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@browser-agent/protocol';
import {
  callOk,
  callTool,
  expect,
  findRef,
  snapshot,
  test,
  type Bridge,
  type ServerOptions,
  type ToolOutcome,
} from '../harness.js';
import type { FixtureSite } from '../fixtures/server.js';
import { askBeforeSecretSubmit, question } from '../submitQuestions.js';

/** The agent "form-filler" on the login form, with the user's ask-before-submit on or off. */
async function onLoginForm(
  bridge: Bridge,
  site: FixtureSite,
  { ask, ...options }: { ask: boolean } & Omit<ServerOptions, 'name'>,
): Promise<Client> {
  const client = await bridge.connectClient('form-filler', options);
  if (ask) await askBeforeSecretSubmit(bridge);
  await callOk(client, 'browser_navigate', { url: site.url('/login.html') });
  return client;
}

/** Held: the page's own submit listener has not run, and the tab is still on the form. */
async function expectNotSubmitted(bridge: Bridge, site: FixtureSite): Promise<void> {
  const tab = await bridge.pageWithUrl(site.url('/login.html'));
  await expect(tab.locator('#status')).toHaveText('Idle');
}

test('allow: the held submit goes through once, after the user allows it', async ({
  bridge,
  site,
}) => {
  const client = await onLoginForm(bridge, site, { ask: true, flags: ['--caps', 'network'] });
  await callOk(client, 'browser_fill_form', {
    fields: [
      { role: 'textbox', name: 'User', value: 'ada' },
      { role: 'textbox', name: 'Password', value: 'pw-123456' },
    ],
  });

  const clicking: Promise<ToolOutcome> = callTool(client, 'browser_click', {
    role: 'button',
    name: 'Sign in',
  });
  const asked = question(bridge.relay);
  await expect(asked).toBeVisible();
  await expect(asked).toContainText('Let form-filler submit this form?');
  await expect(asked).toContainText(`a password field and goes to ${site.origin}`);
  await expect(asked).toContainText('Login');
  await expectNotSubmitted(bridge, site);

  await asked.getByRole('button', { name: 'Allow' }).click();
  const clicked = await clicking;
  expect(clicked.isError, clicked.text).toBe(false);
  expect(clicked.text).toContain('The user allowed submitting a form with a password field');
  await expect(question(bridge.relay)).toHaveCount(0);
  expect(await snapshot(client)).toContain('heading "Signed in"');
  const loads = await callOk(client, 'browser_network_requests', { url: '/titled' });
  expect(loads.text.match(/GET .*\/titled\?title=Signed/g)).toHaveLength(1);
});

test('deny: Enter in a password field is held and nothing is submitted', async ({
  bridge,
  site,
}) => {
  const client = await onLoginForm(bridge, site, { ask: true });
  const page = await snapshot(client);

  const typing = callTool(client, 'browser_type', {
    ref: findRef(page, 'textbox', 'Password'),
    text: 'pw-123456',
    submit: true,
  });
  const asked = question(bridge.relay);
  await expect(asked).toBeVisible();
  await asked.getByRole('button', { name: 'Deny' }).click();
  const typed = await typing;
  expect(typed.isError).toBe(true);
  expect(typed.text).toContain(ErrorCode.USER_DENIED);
  expect(typed.text).toContain('nothing was submitted');
  expect(typed.text).toContain('Ask the user to submit it themselves');

  await expectNotSubmitted(bridge, site);
  expect(await snapshot(client)).toContain('heading "Login"');

  // A form without a secret field is never held.
  const search = findRef(await snapshot(client), 'textbox', 'Search');
  await callOk(client, 'browser_type', { ref: search, text: 'cats', submit: true });
  expect(await snapshot(client)).toContain('heading "Searched"');
  await expect(question(bridge.relay)).toHaveCount(0);
});

test("a submit started by the page's script is held too; no answer fails the call", async ({
  bridge,
  site,
}) => {
  const client = await onLoginForm(bridge, site, { ask: true });
  // Unanswered, the question expires before the call's own 30 s deadline.
  const clicked = await callTool(client, 'browser_click', {
    role: 'button',
    name: 'Quick sign in',
  });
  expect(clicked.isError).toBe(true);
  // Issue #19: no answer is its own code, with a hint, not a denial.
  expect(clicked.text).toContain(ErrorCode.APPROVAL_TIMEOUT);
  expect(clicked.text).toContain('did not answer in time');
  await expect(question(bridge.relay)).toHaveCount(0);
  await expectNotSubmitted(bridge, site);
});

test('setting off: a password form submits without a question', async ({ bridge, site }) => {
  const client = await onLoginForm(bridge, site, { ask: false });
  await callOk(client, 'browser_fill_form', {
    fields: [{ role: 'textbox', name: 'Password', value: 'pw-123456' }],
  });
  const clicked = await callOk(client, 'browser_click', { role: 'button', name: 'Sign in' });
  expect(clicked.text).not.toContain('The user allowed');
  expect(await snapshot(client)).toContain('heading "Signed in"');
  await expect(question(bridge.relay)).toHaveCount(0);
  await expect(bridge.relay.locator('#questions')).toBeHidden();
});
