/**
 * Against the real Chromium, a launched browser's start:
 * - its command line (launchCommand) keeps the browser UI it preloads for nobody out of the start
 *   (chromiumFlags.ts UNUSED_UI_FEATURES), also when a config passes a --disable-features of its
 *   own. A Chromium that renames the features fails here.
 * - the browser a server starts for the daemon it spawns ends with its pipe when no daemon takes
 *   it over (the daemon exits because another one runs, or dies before its first line).
 *   browserHandover.ts relies on this to leave no browser behind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../shared/logger.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { PRELAUNCH_ENV } from '../../shared/prelaunchEnv.js';
import { startBrowserForDaemon } from './browserHandover.js';
import { killGroup, launchCommand, spawnChromium, stopBrowser } from './browserSpawn.js';

const quietLog: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => quietLog,
};

/** The popups load within ~1 s of the start on 2 cores; this looks for 2.5 s. */
const LOOK_MS = 2_500;

describe("a launched browser's start", () => {
  let dir: string;
  const savedExtensionDir = process.env['BROWSER_AGENT_EXTENSION_DIR'];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ba-flags-'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ manifest_version: 3, name: 'flags test', version: '1.0' }),
    );
    process.env['BROWSER_AGENT_EXTENSION_DIR'] = dir;
  });

  afterAll(() => {
    if (savedExtensionDir === undefined) delete process.env['BROWSER_AGENT_EXTENSION_DIR'];
    else process.env['BROWSER_AGENT_EXTENSION_DIR'] = savedExtensionDir;
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads no omnibox popup, with a config that disables a feature of its own', async () => {
    const command = launchCommand({
      headless: true,
      isolated: false,
      userDataDir: join(dir, 'profile'),
      args: ['--disable-features=Translate'],
    });
    expect(command.args.filter((a) => a.startsWith('--disable-features'))).toHaveLength(1);
    const browser = spawnChromium(command.executable, command.args, dir, quietLog);
    try {
      const seen = new Set<string>();
      let sawPage = false;
      const end = Date.now() + LOOK_MS;
      while (Date.now() < end) {
        const { targetInfos } = (await browser.cdp.send('Target.getTargets', {
          filter: [{}],
        })) as { targetInfos: { type: string; url: string }[] };
        for (const t of targetInfos) seen.add(`${t.type} ${t.url}`);
        sawPage ||= targetInfos.some((t) => t.type === 'page');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(sawPage, 'the browser started and showed its blank tab').toBe(true);
      expect([...seen].filter((t) => t.includes('omnibox-popup'))).toEqual([]);
    } finally {
      await stopBrowser(browser, 2_000);
    }
  });

  it('exits when its pipe closes with no daemon to take it', async () => {
    const handed = startBrowserForDaemon(
      { headless: true, isolated: false, userDataDir: join(dir, 'profile-handed') },
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
