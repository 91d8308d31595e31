/**
 * Issue #25 item 4, secrets in every sink and every encoding: a hostile page sends a `--secrets`
 * value back out raw, URL-encoded, form-encoded, HTML-escaped and JSON-escaped, to its text, its
 * console and a response body. No sink the bridge fills shows any of those forms: the results,
 * the console log files, a response body and a snapshot saved with `filename`, the session log,
 * a saved storage state (its cookie and localStorage item that hold the value are left out).
 * And browser_verify_value answers no guess about a password field's value.
 */
import { readdir, readFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { callOk, callToolUntyped, expect, test, type ToolOutcome } from '../harness.js';
import { countPixels } from '../pngPixels.js';
import { agentOn, clickAndWaitFor } from '../steps.js';

const VALUE = 'Zq9&x "y" z!w<v>';
/** The value as the page sends it out, by encoding. */
const FORMS = {
  raw: VALUE,
  uri: 'Zq9%26x%20%22y%22%20z!w%3Cv%3E',
  form: 'Zq9%26x+%22y%22+z%21w%3Cv%3E',
  html: 'Zq9&amp;x &quot;y&quot; z!w&lt;v&gt;',
  json: 'Zq9&x \\"y\\" z!w<v>',
};

function expectNoForm(sink: string, text: string): void {
  expect(text.length, `${sink} is empty`).toBeGreaterThan(0);
  for (const [encoding, form] of Object.entries(FORMS))
    expect.soft(text, `${sink} shows the ${encoding} form of the secret`).not.toContain(form);
}

test('a --secrets value is in no sink, in no encoding', async ({ bridge, sandbox, site }) => {
  const secrets = path.join(sandbox.root, 'secrets.env');
  writeFileSync(secrets, `HOSTILE='${VALUE}'\n`);
  const outputDir = path.join(sandbox.root, 'out');
  const client = await agentOn(bridge, site.url('/hostile-secrets.html'), {
    flags: [
      '--secrets',
      secrets,
      '--output-dir',
      outputDir,
      '--save-session',
      '--caps',
      'network,storage',
    ],
  });
  const outcomes: ToolOutcome[] = [];
  const keep = (o: ToolOutcome): ToolOutcome => (outcomes.push(o), o);

  keep(await callOk(client, 'browser_type', { role: 'textbox', name: 'Note', text: 'HOSTILE' }));
  await clickAndWaitFor(client, 'Leak', 'Leaked');
  keep(await callOk(client, 'browser_snapshot', {}));
  keep(await callOk(client, 'browser_console_messages', {}));
  const list = keep(await callOk(client, 'browser_network_requests', { url: '/api/echo' }));
  const id = /\[([^\]]+)\] GET /.exec(list.text)?.[1] ?? '';
  expect(id, list.text).not.toBe('');
  keep(await callOk(client, 'browser_network_request', { id, part: 'response-body' }));
  keep(await callOk(client, 'browser_network_request', { id, filename: 'body.txt' }));
  keep(await callOk(client, 'browser_snapshot', { filename: 'snapshot.md' }));
  const state = keep(await callOk(client, 'browser_storage_state', { filename: 'state.json' }));
  expect(state.text).toContain(
    '1 cookie(s) and 1 localStorage item(s) that hold a --secrets value',
  );
  const last = keep(await callOk(client, 'browser_tabs', { action: 'list' }));
  expect(last.isError).toBe(false);

  const files = await readdir(outputDir);
  const read = (name: string) => readFile(path.join(outputDir, name), 'utf8');
  const consoleLogs = files.filter((f) => /^console-.*\.log$/.test(f));
  expect(consoleLogs.length, files.join(', ')).toBeGreaterThan(0);
  const sessionLog = files.find((f) => f.startsWith('session-')) ?? '';
  // The session log is appended after each answer; its last entry shows that all were written.
  await expect.poll(async () => (await read(sessionLog)).includes('browser_tabs')).toBe(true);

  expectNoForm('the results', outcomes.map((o) => o.text).join('\n'));
  expectNoForm('the console log files', (await Promise.all(consoleLogs.map(read))).join('\n'));
  expectNoForm('the saved response body', await read('body.txt'));
  expectNoForm('the saved snapshot', await read('snapshot.md'));
  expectNoForm('the session log', await read(sessionLog));
  expectNoForm('the saved storage state', await read('state.json'));
});

test('browser_verify_value answers no guess about a password field', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/hostile-secrets.html'), {
    flags: ['--caps', 'testing'],
  });
  const target = { selector: '#pin', type: 'textbox' };
  const right = await callToolUntyped(client, 'browser_verify_value', { ...target, value: '735' });
  const wrong = await callToolUntyped(client, 'browser_verify_value', { ...target, value: '000' });
  // The right guess and a wrong one get the same refusal: nothing to tell them apart by.
  expect(right.isError).toBe(true);
  expect(right.text).toContain('secret');
  expect(right.text).toBe(wrong.text);
});

test('a --secrets value shown as page text reaches no screenshot pixel and no PDF', async ({
  bridge,
  sandbox,
  site,
}) => {
  const secrets = path.join(sandbox.root, 'secrets.env');
  writeFileSync(secrets, `HOSTILE='${VALUE}'\n`);
  // No recording: its capture masks too, and could be at work while the PDF prints.
  const client = await agentOn(bridge, site.url('/hostile-secret-text.html'), {
    flags: ['--secrets', secrets, '--caps', 'pdf', '--output-dir', path.join(sandbox.root, 'out')],
    env: { BROWSER_AGENT_RECORD_STEPS: 'false' },
  });
  await callOk(client, 'browser_type', { role: 'textbox', name: 'Note', text: 'HOSTILE' });
  await clickAndWaitFor(client, 'Show', 'All shown');
  const red = (r: number, g: number, b: number) => r > 200 && g < 90 && b < 90;
  const grey = (r: number, g: number, b: number) =>
    Math.abs(r - 128) < 8 && Math.abs(g - 128) < 8 && Math.abs(b - 128) < 8;
  const shot = async (args: Record<string, unknown>) => {
    const data = (await callOk(client, 'browser_take_screenshot', args)).images[0]?.data;
    expect(data).toBeDefined();
    return data ?? '';
  };
  // The page's red ink reaches pixels where it shows no secret (so none below is not vacuous).
  const control = countPixels(await shot({ selector: '#control' }), red);
  expect(control).toBeGreaterThan(100);
  // Plain text, a sentence, split across two elements, a shadow root, a read-only field, a
  // textarea, a frame and the Note field itself: no red pixel; grey boxes where the value was.
  const shown = await shot({ selector: '#shown' });
  expect(countPixels(shown, red)).toBe(0);
  expect(countPixels(shown, grey)).toBeGreaterThan(100);
  expect(countPixels(await shot({ selector: '#note' }), red)).toBe(0);
  expect(countPixels(await shot({ fullPage: true }), red)).toBe(control);
  // The mask is lifted afterwards: the page shows the value again, and no highlight is left.
  const after = await callOk(client, 'browser_evaluate', {
    function: '() => CSS.highlights.size',
  });
  expect(after.text).toMatch(/\b0\b/);
  // While the page prints, the value is in none of its texts and the fields print discs.
  await callOk(client, 'browser_pdf_save', {});
  const printed = await callOk(client, 'browser_evaluate', {
    function: `() => ({
      highlighted: window.printed.highlighted.map((t) => /^\u2022+$/.test(t)),
      valueInText: window.printed.text.includes(${JSON.stringify(VALUE)}),
      discs: window.printed.discs,
    })`,
  });
  expect(printed.text.replace(/\s/g, '')).toContain(
    '{"highlighted":[true,true,true,true,true],"valueInText":false,"discs":["disc","disc","disc"]}',
  );
  // And put back after: the page shows the value again.
  const back = await callOk(client, 'browser_evaluate', {
    function: `() => document.getElementById('plain').textContent === ${JSON.stringify(VALUE)}`,
  });
  expect(back.text).toContain('true');
});

test('a password typed into a GET sign-in form is hidden in every answer that shows its URL', async ({
  bridge,
  site,
}) => {
  const PASSWORD = 'Hunter2!x y';
  const FORMS = [PASSWORD, 'Hunter2%21x+y', 'Hunter2!x+y', encodeURIComponent(PASSWORD)];
  const client = await agentOn(bridge, site.url('/hostile-get-login.html'), {
    flags: ['--caps', 'network'],
  });
  await callOk(client, 'browser_type', { role: 'textbox', name: 'User', text: 'ada' });
  await callOk(client, 'browser_type', { selector: '#pw', text: PASSWORD });
  const texts: string[] = [];
  texts.push((await callOk(client, 'browser_click', { role: 'button', name: 'Sign in' })).text);
  // The page did get it (so hiding it below is not vacuous).
  await expect.poll(() => site.requests.some((r) => r.includes('Hunter2%21x+y'))).toBe(true);
  texts.push((await callOk(client, 'browser_snapshot', {})).text);
  texts.push((await callOk(client, 'browser_tabs', { action: 'list' })).text);
  texts.push((await callOk(client, 'browser_network_requests', {})).text);
  texts.push((await callOk(client, 'browser_console_messages', {})).text);
  const all = texts.join('\n');
  expect(all).toContain('[hidden]');
  for (const form of FORMS) expect(all, `the answers show ${form}`).not.toContain(form);
});
