/**
 * Issue #25 item 1: the files the server writes, attacked by a page that talks the agent into a
 * file name, and by another OS user who shares a directory. Every file goes inside one output
 * directory the server owns (a private one under the state directory when none is set), new,
 * 0600, never through a link, and the logs are appended through the handle that created them.
 */
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  symlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

const VICTIM_TEXT = 'export PATH=/usr/bin\n';

test('with no output directory, names the page suggests never land outside the private one', async ({
  bridge,
  sandbox,
  site,
}) => {
  const project = path.join(sandbox.root, 'project');
  await mkdir(project);
  const client = await agentOn(bridge, site.url('/pw-console.html'), { roots: [project] });
  const privateDir = path.join(sandbox.home, 'output');

  // A bare name goes to the private directory, not the client's root.
  const bare = await callOk(client, 'browser_take_screenshot', { filename: 'bare.png' });
  expect(bare.text).toContain(path.join(privateDir, 'bare.png'));
  expect(await readdir(project)).toEqual([]);
  expect((await lstat(path.join(privateDir, 'bare.png'))).mode & 0o777).toBe(0o600);
  expect((await lstat(privateDir)).mode & 0o777).toBe(0o700);

  // Dotfiles (at any component), absolute names elsewhere and `..` are refused by every tool.
  const home = path.join(sandbox.root, 'userhome');
  await mkdir(home);
  const cases: [string, Record<string, unknown>][] = [
    ['browser_snapshot', { filename: path.join(home, '.bash_profile') }],
    ['browser_snapshot', { filename: '.bash_profile' }],
    ['browser_take_screenshot', { filename: '.profile' }],
    ['browser_take_screenshot', { filename: path.join(home, 'shot.png') }],
    ['browser_console_messages', { filename: '.bashrc' }],
    ['browser_console_messages', { filename: 'logs/.hidden/x.log' }],
    ['browser_console_messages', { filename: '../escape.log' }],
  ];
  for (const [tool, args] of cases) {
    const refused = await callTool(client, tool as 'browser_snapshot', args);
    expect(refused.isError, `${tool} ${JSON.stringify(args)}: ${refused.text}`).toBe(true);
    expect(refused.text).toMatch(/Refused to save/);
  }
  expect(await readdir(home)).toEqual([]);
  expect(await readdir(project)).toEqual([]);
  expect((await readdir(privateDir)).filter((f) => f.startsWith('.'))).toEqual([]);
});

test('a shared, linked or foreign output directory is refused', async ({
  bridge,
  sandbox,
  site,
}) => {
  // Three servers under a loaded machine: more than the default minute.
  test.setTimeout(150_000);
  const victim = path.join(sandbox.root, 'bashrc');
  await writeFile(victim, VICTIM_TEXT);
  const elsewhere = path.join(sandbox.root, 'elsewhere');
  await mkdir(elsewhere);

  // Another user could swap files in a world-writable directory: refused, and nothing written.
  const shared = path.join(sandbox.root, 'shared');
  await mkdir(shared);
  await chmod(shared, 0o777);
  const open = await agentOn(bridge, site.url('/pw-console.html'), {
    name: 'shared-dir',
    flags: ['--output-dir', shared],
  });
  const openSnap = await callTool(open, 'browser_snapshot', { filename: 'page.md' });
  expect(openSnap.isError).toBe(true);
  expect(openSnap.text).toContain('writable by others');
  const clicked = await callOk(open, 'browser_click', { role: 'button', name: 'Log' });
  expect(clicked.text).toContain('writable by others');
  expect(await readdir(shared)).toEqual([]);

  // A directory that is itself a link, or (as root) one another user owns: refused.
  const linked = path.join(sandbox.root, 'linked');
  await symlink(elsewhere, linked);
  const viaLink = await agentOn(bridge, site.url('/pw-console.html'), {
    name: 'linked-dir',
    flags: ['--output-dir', linked],
  });
  const linkSnap = await callTool(viaLink, 'browser_snapshot', { filename: 'page.md' });
  expect(linkSnap.text).toContain('is a symbolic link');
  if (process.getuid?.() === 0) {
    const theirs = path.join(sandbox.root, 'theirs');
    await mkdir(theirs, { mode: 0o700 });
    await chown(theirs, 65534, 65534);
    const other = await agentOn(bridge, site.url('/pw-console.html'), {
      name: 'their-dir',
      flags: ['--output-dir', theirs],
    });
    const otherSnap = await callTool(other, 'browser_snapshot', { filename: 'page.md' });
    expect(otherSnap.text).toContain('belongs to uid 65534');
  }
  expect(await readdir(elsewhere)).toEqual([]);
  expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
});

test('in an owned directory, planted links are never followed', async ({
  bridge,
  sandbox,
  site,
}) => {
  const victim = path.join(sandbox.root, 'bashrc');
  await writeFile(victim, VICTIM_TEXT);
  const elsewhere = path.join(sandbox.root, 'elsewhere');
  await mkdir(elsewhere);
  // A linked folder inside the directory, and the logs swapped for links after creation.
  const out = path.join(sandbox.root, 'out');
  await mkdir(out, { mode: 0o700 });
  await symlink(elsewhere, path.join(out, 'sub'));
  const client = await agentOn(bridge, site.url('/pw-console.html'), {
    name: 'owned-dir',
    flags: ['--output-dir', out, '--save-session'],
  });
  const throughLink = await callTool(client, 'browser_snapshot', { filename: 'sub/page.md' });
  expect(throughLink.text).toContain('symbolic link');
  const saved = await callTool(client, 'browser_console_messages', { filename: 'sub/c.log' });
  expect(saved.text).toContain('symbolic link');
  expect(await readdir(elsewhere)).toEqual([]);

  const names = await readdir(out);
  const consoleLog = names.find((f) => f.startsWith('console-info-'));
  const sessionLog = names.find((f) => f.startsWith('session-'));
  expect(consoleLog).toBeDefined();
  expect(sessionLog).toBeDefined();
  for (const name of [consoleLog, sessionLog]) {
    const file = path.join(out, name ?? '');
    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    await rename(file, `${file}.old`);
    await symlink(victim, file);
  }
  await callOk(client, 'browser_click', { role: 'button', name: 'Log' });
  await callOk(client, 'browser_snapshot', {});
  expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  // The entries went on into the files the server made (now renamed), through its handles.
  expect(await readFile(path.join(out, `${consoleLog ?? ''}.old`), 'utf8')).toContain(
    'clicked log',
  );
  expect(await readFile(path.join(out, `${sessionLog ?? ''}.old`), 'utf8')).toContain(
    'browser_click',
  );
});
