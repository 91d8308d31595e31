/**
 * Against the real Chromium: a launch's command line (launchCommand) keeps the browser UI it
 * preloads for nobody out of the start (chromiumFlags.ts UNUSED_UI_FEATURES), also when a
 * config passes a --disable-features of its own. A Chromium that renames the features fails here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../shared/logger.js';
import { launchCommand, spawnChromium, stopBrowser } from './browserSpawn.js';

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
});
