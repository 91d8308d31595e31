/**
 * Issue #7's ask-before-submit on the paths the `submit` event alone does not show: a page
 * script's `form.submit()`, forms inside open and closed shadow roots, and browser_evaluate.
 * Each is asked about; Deny fails the call with USER_DENIED and the server never gets the POST;
 * Allow sends it exactly once.
 */
import { ErrorCode } from '@browser-agent/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FixtureSite } from '../fixtures/server.js';
import {
  callOk,
  callTool,
  expect,
  snapshot,
  test,
  type Bridge,
  type ToolOutcome,
} from '../harness.js';
import { askBeforeSecretSubmit, question } from '../submitQuestions.js';

/** How often the server got the POST of the form that leads to `title` (the site is shared). */
function posts(site: FixtureSite, title: string): number {
  const line = `POST /titled?title=${title.replaceAll(' ', '+')}`;
  return site.requests.filter((r) => r === line).length;
}

async function openForms(bridge: Bridge, site: FixtureSite): Promise<Client> {
  const client = await bridge.connectClient('form-filler');
  await askBeforeSecretSubmit(bridge);
  await callOk(client, 'browser_navigate', { url: site.url('/guarded-forms.html') });
  return client;
}

/** Denied: the call failed USER_DENIED, the tab is still on the forms, and no POST was sent. */
async function expectNothingSent(
  outcome: ToolOutcome,
  client: Client,
  site: FixtureSite,
  before: number,
): Promise<void> {
  expect(outcome.isError).toBe(true);
  expect(outcome.text).toContain(ErrorCode.USER_DENIED);
  expect(outcome.text).toContain('nothing was submitted');
  expect(await snapshot(client)).toContain('heading "Guarded forms"');
  expect(posts(site, 'Legacy signed in')).toBe(before);
}

/** Allowed: the call succeeded, the legacy form was sent exactly once, and its page is shown. */
async function expectSentOnce(
  outcome: ToolOutcome,
  client: Client,
  site: FixtureSite,
  before: number,
): Promise<void> {
  expect(outcome.isError, outcome.text).toBe(false);
  expect(await snapshot(client)).toContain('heading "Legacy signed in"');
  expect(posts(site, 'Legacy signed in')).toBe(before + 1);
}

async function answer(bridge: Bridge, text: string, button: 'Allow' | 'Deny'): Promise<void> {
  const asked = question(bridge.relay);
  await expect(asked).toContainText(text);
  await asked.getByRole('button', { name: button }).click();
}

test("form.submit() from the page's script is asked about; deny sends nothing, allow sends once", async ({
  bridge,
  site,
}) => {
  const client = await openForms(bridge, site);
  const before = posts(site, 'Legacy signed in');
  const click = () => callTool(client, 'browser_click', { role: 'button', name: 'Legacy sign in' });

  const denying = click();
  await answer(bridge, `It has a password field and goes to ${site.origin}`, 'Deny');
  await expectNothingSent(await denying, client, site, before);

  const allowing = click();
  await answer(bridge, 'Let form-filler submit this form?', 'Allow');
  const allowed = await allowing;
  expect(allowed.text).toContain('it was submitted once and the page navigated');
  await expectSentOnce(allowed, client, site, before);
});

test('forms inside open and closed shadow roots are asked about; deny sends nothing, allow sends once', async ({
  bridge,
  site,
}) => {
  const client = await openForms(bridge, site);
  const before = { open: posts(site, 'Shadow signed in'), closed: posts(site, 'Closed signed in') };
  const status = (await bridge.pageWithUrl(site.url('/guarded-forms.html'))).locator('#status');

  // The submit button inside the open root: its submit event never reaches the document.
  const clicking = callTool(client, 'browser_click', { role: 'button', name: 'Shadow sign in' });
  await answer(bridge, 'It has a one-time code field', 'Deny');
  const clicked = await clicking;
  expect(clicked.isError).toBe(true);
  expect(clicked.text).toContain(ErrorCode.USER_DENIED);
  await expect(status).toHaveText('Idle');

  // Enter in the closed root's field, reached with Tab: the page's own script cannot see it.
  await callOk(client, 'browser_click', { role: 'textbox', name: 'Notes' });
  await callOk(client, 'browser_press_key', { key: 'Tab' });
  const pressing = callTool(client, 'browser_press_key', { key: 'Enter' });
  await answer(bridge, 'It has a one-time code field', 'Deny');
  const pressed = await pressing;
  expect(pressed.isError).toBe(true);
  expect(pressed.text).toContain(ErrorCode.USER_DENIED);
  await expect(status).toHaveText('Idle');
  expect(posts(site, 'Shadow signed in')).toBe(before.open);
  expect(posts(site, 'Closed signed in')).toBe(before.closed);

  // The page's requestSubmit() of the open root's form, from a button outside it.
  const quick = callTool(client, 'browser_click', { role: 'button', name: 'Quick shadow sign in' });
  await answer(bridge, 'Let form-filler submit this form?', 'Allow');
  const allowed = await quick;
  expect(allowed.isError, allowed.text).toBe(false);
  expect(allowed.text).toContain('it was submitted once');
  expect(await snapshot(client)).toContain('heading "Shadow signed in"');
  expect(posts(site, 'Shadow signed in')).toBe(before.open + 1);
});

test('browser_evaluate on a page with a secret form is asked first, and its submit is asked too', async ({
  bridge,
  site,
}) => {
  const client = await openForms(bridge, site);
  const before = posts(site, 'Legacy signed in');
  const evaluate = () =>
    callTool(client, 'browser_evaluate', {
      function: "() => { document.getElementById('legacy').submit(); return 'called'; }",
    });
  const scriptQuestion = 'Let form-filler run a script on this page?';

  const refused = evaluate();
  await answer(bridge, scriptQuestion, 'Deny');
  const notRun = await refused;
  expect(notRun.isError).toBe(true);
  expect(notRun.text).toContain(ErrorCode.USER_DENIED);
  expect(notRun.text).toContain('it did not run');

  // Allowed to run, the script's submit() is held by the same guard as a click's.
  const running = evaluate();
  await answer(bridge, scriptQuestion, 'Allow');
  await answer(bridge, 'It has a password field', 'Deny');
  await expectNothingSent(await running, client, site, before);

  const sending = evaluate();
  await answer(bridge, scriptQuestion, 'Allow');
  await answer(bridge, 'Let form-filler submit this form?', 'Allow');
  const sent = await sending;
  expect(sent.text).toContain('called');
  await expectSentOnce(sent, client, site, before);

  // A page without such a form: the script runs unasked.
  const title = await callOk(client, 'browser_evaluate', { function: '() => document.title' });
  expect(title.text).toContain('Legacy signed in');
  await expect(question(bridge.relay)).toHaveCount(0);
});

test("the user's own tab is never held: submit() and shadow-root forms go through at once", async ({
  bridge,
  site,
}) => {
  await openForms(bridge, site);
  const before = { legacy: posts(site, 'Legacy signed in'), open: posts(site, 'Shadow signed in') };
  const own = await bridge.relay.context().newPage();
  await own.goto(site.url('/guarded-forms.html'));
  await own.getByRole('button', { name: 'Legacy sign in' }).click();
  await expect(own.getByRole('heading')).toHaveText('Legacy signed in');
  await own.goBack();
  await own.getByRole('button', { name: 'Quick shadow sign in' }).click();
  await expect(own.getByRole('heading')).toHaveText('Shadow signed in');
  expect(posts(site, 'Legacy signed in')).toBe(before.legacy + 1);
  expect(posts(site, 'Shadow signed in')).toBe(before.open + 1);
  await expect(question(bridge.relay)).toHaveCount(0);
});
