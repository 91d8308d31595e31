/**
 * Against the real Chromium: the browser a server starts for the daemon it spawns ends with its
 * pipe when no daemon takes it over (the daemon exits because another one runs, or dies before
 * its first line). browserHandover.ts relies on this to leave no browser behind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../shared/logger.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { PRELAUNCH_ENV } from '../../shared/prelaunchEnv.js';
import { startBrowserForDaemon } from './browserHandover.js';
import { killGroup } from './browserSpawn.js';

const quietLog: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => quietLog,
};

describe('a browser started for a daemon', () => {
  let dir: string;
  const savedExtensionDir = process.env['BROWSER_AGENT_EXTENSION_DIR'];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ba-handover-'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ manifest_version: 3, name: 'handover test', version: '1.0' }),
    );
    process.env['BROWSER_AGENT_EXTENSION_DIR'] = dir;
  });

  afterAll(() => {
    if (savedExtensionDir === undefined) delete process.env['BROWSER_AGENT_EXTENSION_DIR'];
    else process.env['BROWSER_AGENT_EXTENSION_DIR'] = savedExtensionDir;
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits when its pipe closes with no daemon to take it', async () => {
    const handed = startBrowserForDaemon(
      { headless: true, isolated: false, userDataDir: join(dir, 'profile') },
      dir,
      quietLog,
    );
    expect(handed).toBeDefined();
    const pid = (JSON.parse(handed?.env[PRELAUNCH_ENV] ?? '{}') as { pid: number }).pid;
    expect(pidAlive(pid)).toBe(true);
    // Let it get past its start, where a daemon would have adopted it.
    await new Promise((r) => setTimeout(r, 500));
    handed?.release();
    const deadline = Date.now() + 5_000;
    while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const gone = !pidAlive(pid);
    if (!gone) killGroup(pid, 'SIGKILL');
    expect(gone).toBe(true);
  });
});
