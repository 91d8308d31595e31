/**
 * The coding-agent flow of docs/projects.md: the agent's project runs its dev server with
 * `npm run dev`, and the agent drives it on http://localhost:PORT in a launched, headless
 * browser that picks the project's profile from the first call's projectPath.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, callToolUntyped, expect, findRef, snapshot, test } from '../harness.js';
import { freePort } from '@browser-agent/testkit/scratch';
import { launchedProfiles, PROFILE_DIRNAME } from '../projects.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';
import { isRunning, signalGroup, waitUntil } from '@browser-agent/testkit/procfs';

const APP_FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'localhostApp');

test('a coding agent drives its own localhost dev server, and is told when it is not running', async ({
  sandbox,
}) => {
  const app = path.join(sandbox.root, 'app');
  await cp(APP_FIXTURE, app, { recursive: true });
  // A git repository of its own, as a coding agent's project is; the .gitignore hint needs one.
  await mkdir(path.join(app, '.git'));
  const port = await freePort();
  const url = `http://localhost:${port}/`;

  // No --headless and no display: launch mode must go headless on its own.
  const client = await sandbox.startServer({
    name: 'coding-agent',
    flags: ['--launch', '--executable-path', CHROME_PATH],
    env: { DISPLAY: '', WAYLAND_DISPLAY: '' },
  });

  const early = await callToolUntyped(client, 'browser_navigate', { url, projectPath: app });
  expect(early.isError).toBe(true);
  expect(early.text).toContain('NAVIGATION_FAILED');
  expect(early.text).toContain(`port ${port}`);
  expect(early.text).toContain('is the dev server running on that port?');
  expect(launchedProfiles(sandbox)).toEqual([path.join(app, PROFILE_DIRNAME)]);
  const browser = sandbox.ownProcesses().find((p) => p.cmdline.includes('--user-data-dir='));
  expect(browser?.cmdline).toContain('--headless');

  const dev = await startDevServer(app, port);
  try {
    const loaded = await callOk(client, 'browser_navigate', { url });
    // The repo has no .gitignore; the hint held back by the failed first call comes now.
    expect(loaded.text).toContain(`Add this line to that .gitignore: ${PROFILE_DIRNAME}/`);
    const shot = await callOk(client, 'browser_take_screenshot', {});
    expect(shot.images).toHaveLength(1);
    expect(Buffer.from(shot.images[0]?.data ?? '', 'base64').length).toBeGreaterThan(1000);

    await callOk(client, 'browser_click', {
      ref: findRef(await snapshot(client), 'button', 'Count'),
    });
    await callOk(client, 'browser_type', {
      ref: findRef(await snapshot(client), 'textbox', 'Name'),
      text: 'Ada',
    });
    await callOk(client, 'browser_click', {
      ref: findRef(await snapshot(client), 'button', 'Greet'),
    });
    const page = await snapshot(client);
    expect(page).toContain('Clicked 1 times');
    expect(page).toContain('Hello, Ada!');

    const consoleText = (await callOk(client, 'browser_console_messages', {})).text;
    expect(consoleText).toContain('count clicked 1');
    expect(consoleText).toContain('greeted Ada');
    const errors = await callTool(client, 'browser_console_messages', { level: 'error' });
    expect(errors.text).not.toContain('greeted Ada');
  } finally {
    await stopDevServer(dev);
  }
});

/** `npm run dev` in the app, resolved once it prints its URL. */
async function startDevServer(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn('npm', ['run', 'dev'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm run dev printed no URL:\n${output}`)),
      20_000,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes(`http://localhost:${port}/`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited (${code}):\n${output}`));
    });
  });
  return child;
}

/** npm runs the app in a shell of its own process group: stop the whole group. */
async function stopDevServer(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  signalGroup(pid, 'SIGTERM');
  await waitUntil(() => !isRunning(pid), 5_000);
}
