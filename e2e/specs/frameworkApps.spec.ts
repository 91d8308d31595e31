/**
 * Apps built with the frameworks people use pass an agent's TodoMVC task: add three items,
 * complete one, filter Active, delete one, clear completed. The apps are built at setup from the
 * npm packages in e2e's lockfile (fixtures/apps/buildApps.ts) and served on 127.0.0.1, every
 * script after a short delay as over a slow link.
 *
 * The test acts as an agent does: every ref comes from the latest snapshot, found by role and
 * name; nothing reaches into the app's DOM, and nothing waits beyond what the tools themselves
 * wait for (each action's own settle). A step whose effect the next snapshot does not show fails.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { APPS, buildApps } from '../fixtures/apps/buildApps.js';
import { callOk, expect, findRef, snapshot, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

/** Every script is answered after this, as over a slow link (the apps are on 127.0.0.1). */
const SCRIPT_DELAY_MS = 150;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
};

let outDir = '';
let server: http.Server | undefined;
let origin = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  outDir = await mkdtemp(path.join(os.tmpdir(), 'ba-apps-'));
  await buildApps(outDir);
  server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://apps').pathname;
    const file = path.join(outDir, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(outDir + path.sep)) {
      response.writeHead(404).end();
      return;
    }
    const delay = path.extname(file) === '.js' ? SCRIPT_DELAY_MS : 0;
    Promise.all([readFile(file), new Promise((r) => setTimeout(r, delay))]).then(
      ([body]) => {
        response.writeHead(200, {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        response.end(body);
      },
      () => response.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (outDir !== '') await rm(outDir, { recursive: true, force: true });
});

const ITEMS = ['Buy milk', 'Walk dog', 'Write report'] as const;

/** Whether the snapshot shows an element of this role and exact name. */
function shows(snap: string, role: string, name: string): boolean {
  const head = `- ${role} ${JSON.stringify(name)}`;
  return snap.split('\n').some((line) => {
    const t = line.trimStart();
    return t.startsWith(head) && /^($|[\s:])/.test(t.slice(head.length));
  });
}

/** The items the list shows, by their "Toggle <title>" checkboxes. */
function listed(snap: string): string[] {
  return ITEMS.filter((item) => shows(snap, 'checkbox', `Toggle ${item}`));
}

async function act(
  client: Client,
  step: string,
  role: string,
  name: string,
  how: (ref: string) => Promise<unknown>,
): Promise<string> {
  const before = await snapshot(client);
  let ref: string;
  try {
    ref = findRef(before, role, name);
  } catch (err) {
    throw new Error(`step "${step}": ${String(err)}`, { cause: err });
  }
  await how(ref);
  return snapshot(client);
}

async function todoTask(client: Client, url: string): Promise<void> {
  await callOk(client, 'browser_navigate', { url });
  let snap = '';
  for (const item of ITEMS) {
    snap = await act(client, `add "${item}"`, 'textbox', 'New todo', (ref) =>
      callOk(client, 'browser_type', { ref, text: item, submit: true }),
    );
  }
  expect(listed(snap), 'after adding three items').toEqual([...ITEMS]);
  expect(snap, 'the counter after adding three').toContain('3 items left');

  snap = await act(client, 'complete "Buy milk"', 'checkbox', 'Toggle Buy milk', (ref) =>
    callOk(client, 'browser_click', { ref }),
  );
  expect(snap, 'the counter after completing one').toContain('2 items left');
  expect(shows(snap, 'button', 'Clear completed'), 'Clear completed is offered').toBe(true);

  snap = await act(client, 'filter Active', 'link', 'Active', (ref) =>
    callOk(client, 'browser_click', { ref }),
  );
  expect(listed(snap), 'the Active filter').toEqual(['Walk dog', 'Write report']);

  snap = await act(client, 'delete "Walk dog"', 'button', 'Delete Walk dog', (ref) =>
    callOk(client, 'browser_click', { ref }),
  );
  expect(listed(snap), 'after deleting one').toEqual(['Write report']);
  expect(snap, 'the counter after deleting one').toContain('1 item left');

  snap = await act(client, 'clear completed', 'button', 'Clear completed', (ref) =>
    callOk(client, 'browser_click', { ref }),
  );
  expect(shows(snap, 'button', 'Clear completed'), 'nothing completed is left').toBe(false);

  snap = await act(client, 'filter All', 'link', 'All', (ref) =>
    callOk(client, 'browser_click', { ref }),
  );
  expect(listed(snap), 'everything left, under All').toEqual(['Write report']);
  expect(snap).toContain('1 item left');
}

for (const app of APPS) {
  test(`TodoMVC task on the ${app.name} app (${app.builtWith})`, async ({ sandbox }) => {
    const client = await sandbox.startServer({
      name: `todo-${app.name}`,
      flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
    });
    await todoTask(client, `${origin}/${app.name}/`);
  });
}
