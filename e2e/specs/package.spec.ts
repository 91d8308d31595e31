/**
 * The package a user installs: `pnpm pack` of mcp-server, installed with npm into a fresh prefix
 * from an empty directory, must run the whole chain on its own (its bundled server and daemon and
 * the extension it carries), and nothing in it may point back into this workspace.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { callOk, expect, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

const run = promisify(execFile);
const WORKSPACE_DIR = path.resolve(import.meta.dirname, '..', '..');
const PACKAGE_NAME = '@browser-agent/mcp-server';

let scratch: string;
let tarball: string;
let prefix: string;

/** npm quietly, without asking the network for what its cache already has. */
const NPM_ENV = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_prefer_offline: 'true',
};

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ba-package-'));
  const packDir = path.join(scratch, 'pack');
  const emptyDir = path.join(scratch, 'empty');
  prefix = path.join(scratch, 'prefix');
  await Promise.all([mkdir(packDir), mkdir(emptyDir)]);
  await run('pnpm', ['pack', '--pack-destination', packDir], {
    cwd: path.join(WORKSPACE_DIR, 'mcp-server'),
  });
  const packed = (await readdir(packDir)).filter((f) => f.endsWith('.tgz'));
  expect(packed, 'pnpm pack writes exactly one tarball').toHaveLength(1);
  tarball = path.join(packDir, packed[0] ?? '');
  await run('npm', ['install', '--global', '--prefix', prefix, tarball], {
    cwd: emptyDir,
    env: NPM_ENV,
  });
});

test.afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function installedDir(): string {
  return path.join(prefix, 'lib', 'node_modules', ...PACKAGE_NAME.split('/'));
}

test('the installed package runs in launch mode: navigate and snapshot a 127.0.0.1 page', async ({
  sandbox,
  site,
}) => {
  const client = await sandbox.startServer({
    name: 'installed-package',
    command: { file: path.join(prefix, 'bin', 'browser-agent-mcp'), args: [] },
    flags: ['--launch', '--headless', '--isolated'],
    env: { CHROME_PATH, PATH: `${path.join(prefix, 'bin')}:${process.env.PATH ?? ''}` },
  });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Click me');
  // The daemon it spawned is the installed one, not the workspace's.
  const daemonPid = await sandbox.daemonPid();
  expect(daemonPid).toBeDefined();
  const daemonCmd = (await readFile(`/proc/${daemonPid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
  expect(daemonCmd).toContain(await realpath(installedDir()));
});

test('nothing in the installed package points back into the workspace', async () => {
  const dir = installedDir();
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter(
    (e) => e.isFile() || e.isSymbolicLink(),
  );
  expect(files.length).toBeGreaterThan(10);
  const offenders: string[] = [];
  for (const entry of files) {
    const file = path.join(entry.parentPath, entry.name);
    const real = await realpath(file);
    if (real.startsWith(WORKSPACE_DIR + path.sep)) offenders.push(`${file} -> ${real}`);
    const text = await readFile(file, 'latin1');
    if (text.includes(WORKSPACE_DIR)) offenders.push(`${file} names ${WORKSPACE_DIR}`);
  }
  expect(offenders).toEqual([]);
  expect(await realpath(path.join(prefix, 'bin', 'browser-agent-mcp'))).toBe(
    await realpath(path.join(dir, 'bin', 'browser-agent-mcp.js')),
  );
  // Only registry packages were installed beside it: no workspace package to resolve.
  const deps = await readdir(path.join(dir, 'node_modules')).catch(() => []);
  expect(deps.filter((d) => d.startsWith('@browser-agent'))).toEqual([]);
  // The packaged extension is there, without source maps.
  const manifest = JSON.parse(
    await readFile(path.join(dir, 'extension', 'manifest.json'), 'utf8'),
  ) as { manifest_version: number };
  expect(manifest.manifest_version).toBe(3);
  expect(files.filter((e) => e.name.endsWith('.map'))).toEqual([]);
});

test('the installed CLI prints its extension folder, writes a store zip, and runs doctor', async () => {
  const bin = path.join(prefix, 'bin', 'browser-agent-mcp');
  const folder = (await run(bin, ['extension'])).stdout.trim();
  expect(await realpath(folder)).toBe(await realpath(path.join(installedDir(), 'extension')));
  const zip = path.join(scratch, 'store.zip');
  const report = (await run(bin, ['extension', '--zip', zip])).stdout;
  expect(report).toMatch(/\d+ files, [\d.]+ KiB/);
  await run('unzip', ['-tq', zip]);
  const names = (await run('unzip', ['-Z1', zip])).stdout.trim().split('\n');
  expect(names).toContain('manifest.json');
  expect(names.filter((n) => /\.map$|\.test\./.test(n))).toEqual([]);
  // Exit code 1 only means some check failed on this machine (a port in use, say); the report
  // is on stdout either way.
  const doctorRun = await run(bin, ['doctor', '--json'], {
    env: { ...process.env, BROWSER_AGENT_HOME: path.join(scratch, 'doctor-home'), CHROME_PATH },
  }).catch((err: { code?: number; stdout?: string }) => {
    if (err.code !== 1 || !err.stdout) throw err;
    return { stdout: err.stdout };
  });
  const doctor = JSON.parse(doctorRun.stdout) as { checks: { id: string; summary: string }[] };
  expect(doctor.checks.find((c) => c.id === 'extension-files')?.summary).toContain(
    await realpath(installedDir()),
  );
});

test('setup <client> writes a command that starts: each written config, run as its client runs it, serves MCP (#28)', async ({
  sandbox,
}) => {
  const bin = path.join(prefix, 'bin', 'browser-agent-mcp');
  const home = path.join(scratch, 'setup-home');
  await mkdir(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  const files: Record<string, [string, 'mcpServers' | 'servers']> = {
    'claude-desktop': [
      path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      'mcpServers',
    ],
    'claude-code': [path.join(home, '.claude.json'), 'mcpServers'],
    cursor: [path.join(home, '.cursor', 'mcp.json'), 'mcpServers'],
    vscode: [path.join(home, '.config', 'Code', 'User', 'mcp.json'), 'servers'],
  };
  for (const [client, [file, listKey]] of Object.entries(files)) {
    const said = (await run(bin, ['setup', client], { env })).stdout;
    expect(said).toContain('It runs this installed copy');
    const written = JSON.parse(await readFile(file, 'utf8')) as Record<
      string,
      Record<string, { command: string; args: string[] }>
    >;
    const entry = written[listKey]?.['browser-agent'];
    expect(entry, `${client}: ${file}`).toBeDefined();
    if (entry === undefined) continue;
    expect(entry.command).not.toBe('npx');
    const started = await sandbox.startServer({
      name: `setup-${client}`,
      command: { file: entry.command, args: entry.args },
      env: { CHROME_PATH },
    });
    const { tools } = await started.listTools();
    expect(tools.map((t) => t.name)).toContain('browser_navigate');
    await started.close();
  }
});

test('the npx line an MCP client uses (npx -y --package <tarball> browser-agent-mcp) serves MCP over stdio', async ({
  sandbox,
}) => {
  const client = await sandbox.startServer({
    name: 'npx-package',
    command: { file: 'npx', args: ['-y', '--package', tarball, 'browser-agent-mcp'] },
    env: {
      npm_config_update_notifier: 'false',
      npm_config_prefer_offline: 'true',
    },
  });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('browser_navigate');
  // The server starts its daemon at once; let it settle so the sandbox stops it on teardown.
  await expect.poll(() => sandbox.daemonPid(), { timeout: 15_000 }).toBeDefined();
});

test('the MCP Bundle builds with the official mcpb CLI, validates, and runs as Claude Desktop starts it', async ({
  sandbox,
  site,
}) => {
  const out = path.join(scratch, 'mcpb');
  await run('bash', [path.join(WORKSPACE_DIR, 'scripts', 'build-mcpb.sh'), '--out', out], {
    cwd: WORKSPACE_DIR,
    env: NPM_ENV,
  });
  const bundles = (await readdir(out)).filter((f) => f.endsWith('.mcpb'));
  expect(bundles).toHaveLength(1);
  const bundle = path.join(out, bundles[0] ?? '');
  const unpacked = path.join(scratch, 'mcpb-unpacked');
  await run('pnpm', ['exec', 'mcpb', 'unpack', bundle, unpacked], { cwd: WORKSPACE_DIR });
  // The unpacked manifest passes the validator too, and asks for the mode and the project.
  await run('pnpm', ['exec', 'mcpb', 'validate', path.join(unpacked, 'manifest.json')], {
    cwd: WORKSPACE_DIR,
  });
  const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as {
    user_config: Record<string, unknown>;
    server: { mcp_config: { args: string[] } };
  };
  expect(Object.keys(manifest.user_config)).toEqual(['launch', 'project']);
  expect(manifest.server.mcp_config.args).toEqual(['${__dirname}/server/mcpb-entry.mjs']);

  // As the host runs it: node with ${__dirname} replaced, user_config in the environment (the
  // project left empty, launch on).
  const client = await sandbox.startServer({
    name: 'mcpb-host',
    command: { file: process.execPath, args: [path.join(unpacked, 'server', 'mcpb-entry.mjs')] },
    env: {
      CHROME_PATH,
      BROWSER_AGENT_MCPB_LAUNCH: 'true',
      BROWSER_AGENT_MCPB_PROJECT: '',
      BROWSER_AGENT_HEADLESS: '1',
    },
  });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Click me');
});
