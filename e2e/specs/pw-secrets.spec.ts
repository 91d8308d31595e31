/**
 * `--secrets <dotenv file>` (issue #18, item 9): an agent types a secret by its name, the page
 * gets the value, and no result shows the value: text, snapshots, console, network, evaluate
 * results and errors all say <secret>NAME</secret> instead.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callTool, callToolUntyped, type ToolOutcome } from '../harness.js';
import { agentOn } from '../steps.js';

const VALUE = 'password123';
const MARK = '<secret>X-PASSWORD</secret>';

test('a secret typed by name reaches the page, and its value appears in no result', async ({
  bridge,
  sandbox,
  site,
}) => {
  const secrets = path.join(sandbox.root, 'secrets.env');
  writeFileSync(secrets, `# test secrets\nEMPTY_SECRET=\nX-PASSWORD=${VALUE}\nPIN="4711-9"\n`);
  const client = await agentOn(bridge, site.url('/secret-echo.html'), {
    name: 'secrets',
    flags: ['--secrets', secrets, '--caps', 'network'],
  });
  const outcomes: ToolOutcome[] = [];
  const keep = (o: ToolOutcome): ToolOutcome => {
    outcomes.push(o);
    return o;
  };

  const typed = keep(
    await callOk(client, 'browser_type', { role: 'textbox', name: 'Note', text: 'X-PASSWORD' }),
  );
  keep(
    await callOk(client, 'browser_fill_form', {
      fields: [{ role: 'textbox', name: 'Pin', value: 'PIN' }],
    }),
  );
  // The page has the real values (a comparison in the page, so no value comes back).
  const real = keep(
    await callOk(client, 'browser_evaluate', {
      function: `() => document.getElementById('note').value === ${JSON.stringify(VALUE)} && document.getElementById('pin').value === '4711-9'`,
    }),
  );
  expect(real.text).toContain('true');

  keep(await callOk(client, 'browser_click', { role: 'button', name: 'Send' }));
  const snap = keep(await callOk(client, 'browser_snapshot', {}));
  expect(snap.text).toContain(`Sent ${MARK} and <secret>PIN</secret>`);
  expect(snap.text).toContain(MARK);

  const shown = keep(
    await callOk(client, 'browser_evaluate', {
      function: "() => document.getElementById('note').value",
    }),
  );
  expect(shown.text).toContain(MARK);

  // Key events (slowly) make the page log the field's value.
  keep(
    await callOk(client, 'browser_type', {
      role: 'textbox',
      name: 'Note',
      text: '!',
      slowly: true,
      clear: false,
    }),
  );
  const consoleOut = keep(await callOk(client, 'browser_console_messages', {}));
  expect(consoleOut.text).toContain(`Text: ${MARK}`);

  const network = keep(await callOk(client, 'browser_network_requests', {}));
  expect(network.text).toContain(`note=${MARK}`);

  // Errors too.
  const failed = keep(
    await callToolUntyped(client, 'browser_evaluate', {
      function: `() => { throw new Error('bad ' + document.getElementById('note').value); }`,
    }),
  );
  expect(failed.isError).toBe(true);
  expect(failed.text).toContain(MARK);

  // A name that is not a secret is typed as written; an empty secret is ignored.
  keep(
    await callOk(client, 'browser_type', { role: 'textbox', name: 'Pin', text: 'EMPTY_SECRET' }),
  );
  const literal = keep(
    await callOk(client, 'browser_evaluate', {
      function: "() => document.getElementById('pin').value",
    }),
  );
  expect(literal.text).toContain('EMPTY_SECRET');

  expect(typed.isError).toBe(false);
  for (const o of outcomes) {
    expect(o.text).not.toContain(VALUE);
    expect(o.text).not.toContain('4711-9');
  }
});

test('without --secrets a name is typed as written', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/secret-echo.html'), { name: 'no-secrets' });
  await callOk(client, 'browser_type', { role: 'textbox', name: 'Note', text: 'X-PASSWORD' });
  const value = await callTool(client, 'browser_evaluate', {
    function: "() => document.getElementById('note').value",
  });
  expect(value.text).toContain('X-PASSWORD');
  expect(value.text).not.toContain('<secret>');
});

test('an unreadable secrets file stops the server with a message naming the flag', async ({
  sandbox,
}) => {
  await expect(
    sandbox.startServer({ name: 'bad', flags: ['--secrets', path.join(sandbox.root, 'none.env')] }),
  ).rejects.toThrow();
});
