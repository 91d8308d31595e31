/**
 * Issue #18, item 1: the `testing` group's assertions, as Playwright MCP users call them
 * (browser_verify_element_visible, _text_visible, _list_visible, _value, and
 * browser_generate_locator). Each passes with "Done" or fails with VERIFY_FAILED saying what
 * the page has instead.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, findRef, snapshot, test, type Bridge } from '../harness.js';
import type { FixtureSite } from '../fixtures/server.js';
import { agentOn } from '../steps.js';

async function onVerifyPage(bridge: Bridge, site: FixtureSite): Promise<Client> {
  return agentOn(bridge, site.url('/pw-verify.html'), { flags: ['--caps', 'testing'] });
}

test('the testing tools are listed only with --caps testing', async ({ bridge, site }) => {
  const plain = await agentOn(bridge, site.url('/pw-verify.html'));
  const names = (await plain.listTools()).tools.map((t) => t.name);
  expect(names).not.toContain('browser_verify_value');
  const testing = await onVerifyPage(bridge, site);
  const listed = (await testing.listTools()).tools.map((t) => t.name);
  for (const name of [
    'browser_verify_element_visible',
    'browser_verify_text_visible',
    'browser_verify_list_visible',
    'browser_verify_value',
    'browser_generate_locator',
  ])
    expect(listed).toContain(name);
});

test('verify element visible: by role and name, in frames too; a missing one fails', async ({
  bridge,
  site,
}) => {
  const client = await onVerifyPage(bridge, site);
  for (const [role, accessibleName] of [
    ['button', 'Submit'],
    ['heading', 'Welcome'],
    ['alert', 'Success message'],
    ['heading', 'Inner frame heading'],
  ] as const) {
    const ok = await callOk(client, 'browser_verify_element_visible', { role, accessibleName });
    expect(ok.text).toMatch(
      new RegExp(`^Done: ${role} "${accessibleName}" \\[e\\d+\\] is visible`),
    );
  }
  const missing = await callTool(client, 'browser_verify_element_visible', {
    role: 'button',
    accessibleName: 'Cancel',
  });
  expect(missing.isError).toBe(true);
  expect(missing.text).toContain(
    `${ErrorCode.VERIFY_FAILED}: Element with role "button" and accessible name "Cancel" not found`,
  );
});

test('verify text visible: any case, quotes, frames; hidden or absent text fails', async ({
  bridge,
  site,
}) => {
  const client = await onVerifyPage(bridge, site);
  const hello = await callOk(client, 'browser_verify_text_visible', { text: 'hello WORLD' });
  expect(hello.text).toMatch(/^Done: "hello WORLD" is visible in paragraph \[e\d+\]/);
  await callOk(client, 'browser_verify_text_visible', { text: `She said "Hello" — it's` });
  await callOk(client, 'browser_verify_text_visible', { text: 'Text inside the frame' });
  for (const text of ['Secret text nobody sees', 'Goodbye world']) {
    const failed = await callTool(client, 'browser_verify_text_visible', { text });
    expect(failed.isError, text).toBe(true);
    expect(failed.text).toContain(`${ErrorCode.VERIFY_FAILED}: Text not found`);
  }
});

test('verify list visible: items shown by the list pass; a missing item is named', async ({
  bridge,
  site,
}) => {
  const client = await onVerifyPage(bridge, site);
  // A list gets no ref in our outline; role and name (or a selector) name it.
  const list = { role: 'list', name: 'Fruit' };
  const ok = await callOk(client, 'browser_verify_list_visible', {
    ...list,
    items: ['Apple', 'Cherry'],
  });
  expect(ok.text).toMatch(/^Done: list "Fruit" \[e\d+\] shows all 2 item/);
  const bySelector = await callOk(client, 'browser_verify_list_visible', {
    selector: 'ul',
    items: ['Banana'],
  });
  expect(bySelector.text).toContain('shows all 1 item');
  const failed = await callTool(client, 'browser_verify_list_visible', {
    ...list,
    items: ['Apple', 'Durian'],
  });
  expect(failed.isError).toBe(true);
  expect(failed.text).toContain(
    `${ErrorCode.VERIFY_FAILED}: Item "Durian" not found in list "Fruit" [`,
  );
});

test('verify value: textbox, checkbox, radio, slider, select; a secret is never echoed', async ({
  bridge,
  site,
}) => {
  const client = await onVerifyPage(bridge, site);
  const page = await snapshot(client);
  const name = findRef(page, 'textbox', 'Name');
  await callOk(client, 'browser_verify_value', { type: 'textbox', ref: name, value: 'John Doe' });
  const wrong = await callTool(client, 'browser_verify_value', {
    type: 'textbox',
    ref: name,
    value: 'Jane Smith',
  });
  expect(wrong.isError).toBe(true);
  expect(wrong.text).toContain('Expected value "Jane Smith", but got "John Doe"');

  const subscribe = findRef(page, 'checkbox', 'Subscribe');
  await callOk(client, 'browser_verify_value', { type: 'checkbox', ref: subscribe, value: 'true' });
  const unchecked = await callTool(client, 'browser_verify_value', {
    type: 'checkbox',
    ref: subscribe,
    value: 'false',
  });
  expect(unchecked.text).toContain('Expected value "false", but got "true"');
  await callOk(client, 'browser_verify_value', {
    type: 'radio',
    ref: findRef(page, 'radio', 'Blue'),
    value: 'false',
  });
  // Playwright MCP's element arguments: role and name work as well as a ref.
  await callOk(client, 'browser_verify_value', {
    type: 'radio',
    role: 'radio',
    name: 'Red',
    value: 'true',
  });
  await callOk(client, 'browser_verify_value', {
    type: 'slider',
    ref: findRef(page, 'slider', 'Volume'),
    value: '75',
  });
  const country = findRef(page, 'combobox', 'Country');
  await callOk(client, 'browser_verify_value', { type: 'combobox', ref: country, value: 'us' });
  await callOk(client, 'browser_verify_value', { ref: country, value: 'United States' });

  const password = findRef(page, 'textbox', 'Password');
  const secret = await callTool(client, 'browser_verify_value', { ref: password, value: 'guess' });
  expect(secret.isError).toBe(true);
  expect(secret.text).toContain('secret field');
  expect(secret.text).not.toContain('hunter2');
  // Issue #25.4: the right value gets the same refusal as a guess (no oracle for a password).
  const right = await callTool(client, 'browser_verify_value', {
    ref: password,
    value: 'hunter2-S3cret',
  });
  expect(right.isError).toBe(true);
  expect(right.text).toBe(secret.text);
});

test('generate locator: getByRole with the exact name, getByText for a text', async ({
  bridge,
  site,
}) => {
  const client = await onVerifyPage(bridge, site);
  const ref = findRef(await snapshot(client), 'button', 'Submit');
  const locator = await callOk(client, 'browser_generate_locator', { ref });
  expect(locator.text).toContain(`getByRole('button', { name: 'Submit', exact: true })`);
  // A nameless text element (its ref from browser_find) is located by its text.
  const found = await callOk(client, 'browser_find', { text: "it's a beautiful" });
  const textRef = /ref: (e\d+)/.exec(found.text)?.[1] ?? '';
  const byText = await callOk(client, 'browser_generate_locator', { ref: textRef });
  expect(byText.text).toContain(
    `getByText('She said "Hello" — it\\'s a beautiful day', { exact: true })`,
  );
});
