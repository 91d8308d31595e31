/**
 * One build, one daemon (#26.5, #27.4). A daemon started by a server of another build (the
 * override stands in for an old install updated in place) is never driven by a server of this
 * build: while it serves a client the new server says why (not "open the side panel"), doctor
 * names both builds, and once nobody uses it the new server replaces it.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';
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
