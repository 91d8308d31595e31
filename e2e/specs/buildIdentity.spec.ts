/**
 * One build, one daemon (#26.5, #27.4). A daemon started by a server of another build (the
 * override stands in for an old install updated in place) is never driven by a server of this
 * build: while it serves a client the new server says why (not "open the side panel"), doctor
 * names both builds, and once nobody uses it the new server replaces it. And an extension
 * updated in place (same version, new files) does not keep running the old build's service
 * worker, which Chrome keeps in the profile until the version changes.
 */
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from '@playwright/test';
import { EXTENSION_ORIGIN, RELAY_PAGE_PATH } from '@browser-agent/protocol';
import { extensionFlags } from '@browser-agent/mcp-server/chromiumFlags';
import {
  CHROME_PATH,
  EXTENSION_DIR,
  SERVER_BIN,
  TEST_CHROMIUM_FLAGS,
} from '@browser-agent/testkit/workspace';
import { callOk, callTool, expect, test, type Sandbox } from '../harness.js';

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

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

test('a service worker Chrome kept from another build of the same version is reloaded from disk', async ({
  sandbox,
}) => {
  test.setTimeout(90_000);
  const manifest = JSON.parse(
    await readFile(path.join(EXTENSION_DIR, 'manifest.json'), 'utf8'),
  ) as { version_name?: string };
  const current = /build (\w+)$/.exec(String(manifest.version_name))?.[1] ?? '';
  expect(current, 'the manifest names its build').toMatch(/^[0-9a-f]{12}$/);
  const OLD = 'a0a0a0a0a0a0';
  const ext = path.join(sandbox.root, 'installed-extension');
  const profile = path.join(sandbox.root, 'kept-profile');
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROME_PATH,
      headless: true,
      args: [...extensionFlags(ext), ...TEST_CHROMIUM_FLAGS],
    });
  // What Chrome runs: the worker scripts it keeps in the profile.
  const cachedScripts = async () => {
    const dir = path.join(profile, 'Default', 'Service Worker', 'ScriptCache');
    const files = await filesUnder(dir).catch(() => []);
    return (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n');
  };
  // The running worker's own answer, asked from an extension page (with no bridge to reach).
  const workerBuild = async (context: BrowserContext) => {
    const page = await context.newPage();
    try {
      await page.goto(`${EXTENSION_ORIGIN}/${RELAY_PAGE_PATH}?port=1`);
      return await page.evaluate(() =>
        // e2e has no @types/chrome: the one call this needs.
        (
          globalThis as unknown as {
            chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } };
          }
        ).chrome.runtime.sendMessage({ kind: 'build_query' }),
      );
    } catch (err) {
      return `page closed: ${String(err).slice(0, 200)}`;
    } finally {
      await page.close().catch(() => undefined);
    }
  };

  // Yesterday's install: the same files with another build baked in, run once in the profile.
  await cp(EXTENSION_DIR, ext, { recursive: true });
  for (const file of await filesUnder(ext)) {
    if (!/\.(js|json)$/.test(file)) continue;
    const text = await readFile(file, 'utf8');
    if (text.includes(current)) await writeFile(file, text.replaceAll(current, OLD));
  }
  const before = await launch();
  try {
    await expect.poll(() => workerBuild(before), { timeout: 20_000 }).toBe(OLD);
    await expect.poll(cachedScripts, { timeout: 10_000 }).toContain(OLD);
  } finally {
    await before.close();
  }
  // Updated in place: today's files, same version, same folder.
  await rm(ext, { recursive: true, force: true });
  await cp(EXTENSION_DIR, ext, { recursive: true });
  const after = await launch();
  try {
    await expect.poll(() => workerBuild(after), { timeout: 30_000 }).toBe(current);
    const cached = await cachedScripts();
    expect(cached).toContain(current);
    expect(cached).not.toContain(OLD);
  } finally {
    await after.close();
  }
});
