/**
 * One build, one daemon (#26.5, #27.4). A daemon started by a server of another build (the
 * override stands in for an old install updated in place) is never driven by a server of this
 * build: while it serves a client the new server says why (not "open the side panel"), doctor
 * names both builds, and once nobody uses it the new server replaces it. And a kept launch
 * profile does not keep running the service worker of the build before an update in place,
 * which Chrome keeps in the profile (daemon/launch/workerCache.ts).
 */
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROME_PATH, EXTENSION_DIR, SERVER_BIN } from '@browser-agent/testkit/workspace';
import { callOk, callTool, expect, test, type Sandbox, type ToolOutcome } from '../harness.js';

const run = promisify(execFile);

interface DaemonCheck {
  id: string;
  status: string;
  summary: string;
}

async function doctorReport(sandbox: Sandbox): Promise<{ checks: DaemonCheck[] }> {
  const result = await run(process.execPath, [SERVER_BIN, 'doctor', '--json'], {
    env: {
      ...process.env,
      BROWSER_AGENT_HOME: sandbox.home,
      BROWSER_AGENT_PORT: String(sandbox.port),
    },
  }).catch((err: { stdout?: string; code?: number }) => {
    // Exit code 1 means a check failed; the report is still on stdout.
    if (err.code !== 1 || err.stdout === undefined) throw err;
    return { stdout: err.stdout };
  });
  return JSON.parse(result.stdout) as { checks: DaemonCheck[] };
}

async function daemonCheck(sandbox: Sandbox): Promise<DaemonCheck | undefined> {
  return (await doctorReport(sandbox)).checks.find((c) => c.id === 'daemon');
}

test('a daemon of another build: refused with its cause while in use, named by doctor, replaced once free', async ({
  bridge,
  sandbox,
  site,
}) => {
  test.setTimeout(120_000);
  const old = await bridge.connectClient('old-build', {
    env: { BROWSER_AGENT_BUILD_OVERRIDE: 'old-build' },
  });
  await callOk(old, 'browser_navigate', { url: site.url('/titled?title=Old') });
  const oldDaemon = await sandbox.daemonPid();

  const doctor = await daemonCheck(sandbox);
  expect(doctor?.status).toBe('warn');
  expect(doctor?.summary).toContain('build old-build');
  expect(doctor?.summary).toContain('serves 1 MCP client');

  const fresh = await sandbox.startServer({ name: 'new-build' });
  const refused = await callTool(fresh, 'browser_tabs', { action: 'list' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('VERSION_MISMATCH');
  expect(refused.text).toContain('build old-build');
  expect(refused.text).toContain('serves 1 other MCP client');
  expect(refused.text).not.toContain('side panel');
  expect(await sandbox.daemonPid()).toBe(oldDaemon);

  // Nobody uses the old daemon now: the next call stops it and this build's daemon serves it.
  await old.close();
  const opened = await callTool(fresh, 'browser_navigate', { url: site.url('/titled?title=New') });
  expect(opened.isError, opened.text).toBe(false);
  expect(opened.text).toContain('- Page Title: "New"');
  expect(await sandbox.daemonPid()).not.toBe(oldDaemon);
  expect((await daemonCheck(sandbox))?.status).toBe('ok');
});

test('doctor names an old daemon once: the port it holds is not "another program"', async ({
  sandbox,
}) => {
  await sandbox.startServer({ name: 'old-daemon' });
  await expect.poll(() => sandbox.daemonPid(), { timeout: 15_000 }).toBeDefined();
  const pid = await sandbox.daemonPid();
  // Once the server's session is in, the daemon has nothing more to write.
  await expect
    .poll(
      async () => (await doctorReport(sandbox)).checks.find((c) => c.id === 'sessions')?.summary,
    )
    .toContain('old-daemon');
  // A daemon from before status.json says nothing doctor can read, like this one now.
  await rm(path.join(sandbox.home, 'status.json'), { force: true });
  const report = await doctorReport(sandbox);
  const daemon = report.checks.find((c) => c.id === 'daemon');
  const port = report.checks.find((c) => c.id === 'port');
  expect(daemon?.summary).toContain('older');
  expect(port?.status).toBe('info');
  expect(port?.summary).toContain(`bridge daemon (pid ${pid})`);
  expect(port?.summary).not.toContain('another program');
});

/** A launch-mode server on a kept profile: its first navigate, then the client closed. */
async function navigateInProfile(
  sandbox: Sandbox,
  url: string,
  name: string,
  profile: string,
  env: Record<string, string> = {},
): Promise<ToolOutcome> {
  const client = await sandbox.startServer({
    name,
    flags: ['--launch', '--headless', '--executable-path', CHROME_PATH, '--user-data-dir', profile],
    env,
  });
  const nav = await callTool(client, 'browser_navigate', { url });
  await client.close();
  return nav;
}

/** Stops the daemon, and with it the browser it launched, so the profile is free again. */
async function stopLaunchDaemon(sandbox: Sandbox): Promise<void> {
  const pid = Number((await readFile(path.join(sandbox.home, 'daemon.pid'), 'utf8')).trim());
  process.kill(pid, 'SIGTERM');
  await expect
    .poll(() => readFile(path.join(sandbox.home, 'daemon.log'), 'utf8'), { timeout: 15_000 })
    .toContain('launched browser exited');
  await rm(path.join(sandbox.home, 'daemon.log'), { force: true });
}

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

test('a kept launch profile does not run the extension worker of an older build after an update in place', async ({
  sandbox,
  site,
}) => {
  test.setTimeout(120_000);
  const manifest = JSON.parse(
    await readFile(path.join(EXTENSION_DIR, 'manifest.json'), 'utf8'),
  ) as { version_name?: string };
  const current = /build (\w+)$/.exec(String(manifest.version_name))?.[1] ?? '';
  expect(current, 'the manifest names its build').toMatch(/^[0-9a-f]{12}$/);
  const OLD = 'a0a0a0a0a0a0';
  const ext = path.join(sandbox.root, 'installed-extension');
  const profile = path.join(sandbox.root, 'kept-profile');
  // What Chrome runs: the worker scripts it keeps in the profile.
  const cachedScripts = async () => {
    const dir = path.join(profile, 'Default', 'Service Worker', 'ScriptCache');
    const files = await filesUnder(dir).catch(() => []);
    return (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n');
  };
  const launchOnce = (name: string) =>
    navigateInProfile(sandbox, site.url('/button.html'), name, profile, {
      BROWSER_AGENT_EXTENSION_DIR: ext,
    });
  const stopDaemon = () => stopLaunchDaemon(sandbox);

  // Yesterday's install: the same files with another build baked in, run once in the profile.
  await cp(EXTENSION_DIR, ext, { recursive: true });
  for (const file of await filesUnder(ext)) {
    if (!/\.(js|json)$/.test(file)) continue;
    const text = await readFile(file, 'utf8');
    if (text.includes(current)) await writeFile(file, text.replaceAll(current, OLD));
  }
  await launchOnce('yesterday');
  await expect.poll(cachedScripts, { timeout: 10_000 }).toContain(OLD);
  await stopDaemon();
  // Updated in place: today's files, same version, same folder, same profile.
  await rm(ext, { recursive: true, force: true });
  await cp(EXTENSION_DIR, ext, { recursive: true });
  const nav = await launchOnce('today');
  expect(nav.text).toContain('Navigated to');
  await expect.poll(cachedScripts, { timeout: 10_000 }).toContain(current);
  expect(await cachedScripts()).not.toContain(OLD);
  await stopDaemon();
});

test("the first launch after an update answers its first call: Chrome registers today's worker instead of starting the one that was removed", async ({
  sandbox,
  site,
}) => {
  test.setTimeout(90_000);
  const profile = path.join(sandbox.root, 'kept-profile');
  const launchAndNavigate = async (name: string) => {
    const nav = await navigateInProfile(sandbox, site.url('/button.html'), name, profile);
    await stopLaunchDaemon(sandbox);
    // Chrome's own word on the worker: it logs DidStartWorkerFail when it starts a registration
    // that is gone (before the fix: in 5 of 6 such launches; 4 of them then hung 30 s).
    const chromeLog = await readFile(path.join(sandbox.home, 'chromium.log'), 'utf8');
    await rm(path.join(sandbox.home, 'chromium.log'), { force: true });
    return { nav, workerFailed: chromeLog.includes('DidStartWorkerFail') };
  };
  expect((await launchAndNavigate('yesterday')).nav.text).toContain('Navigated to');
  // The profile last ran another build: the daemon removes its worker registrations.
  await writeFile(path.join(profile, 'browser-agent-extension-build'), 'a0a0a0a0a0a0\n');
  const today = await launchAndNavigate('today');
  expect(today.nav.isError, today.nav.text).toBe(false);
  expect(today.nav.text).toContain('Navigated to');
  expect(today.workerFailed, 'Chrome started a worker registration that was removed').toBe(false);
});
