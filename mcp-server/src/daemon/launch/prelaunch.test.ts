import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../shared/logger.js';
import {
  launchCommand,
  spawnChromium,
  type LaunchOptions,
  type SpawnedBrowser,
} from './browserSpawn.js';
import { PRELAUNCH_ENV, prelaunchEnv } from '../../shared/prelaunchEnv.js';
import { Prelaunch, parsePrelaunch } from './prelaunch.js';

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = {
    lines,
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
    child: () => log,
  };
  return log;
}

describe('what a server tells the daemon it spawns to start ahead', () => {
  it('names a headless launch, without what only the session carries', () => {
    const launch: LaunchOptions = {
      headless: true,
      isolated: false,
      userDataDir: '/p/profile',
      args: ['--lang=de'],
      owner: 'server-1',
      grantPermissions: ['geolocation'],
      downloadDir: '/p/out',
    };
    const env = prelaunchEnv(launch);
    expect(JSON.parse(env[PRELAUNCH_ENV] ?? '')).toEqual({
      headless: true,
      isolated: false,
      userDataDir: '/p/profile',
      args: ['--lang=de'],
    });
  });

  it('names nothing for a headed browser, an isolated context, or extension mode', () => {
    expect(prelaunchEnv({ headless: false, isolated: false, userDataDir: '/p' })).toEqual({});
    expect(prelaunchEnv({ headless: true, isolated: true })).toEqual({});
    expect(prelaunchEnv(undefined)).toEqual({});
    // --isolated with a profile of its own is a browser of its own: started ahead.
    expect(prelaunchEnv({ headless: true, isolated: true, userDataDir: '/p' })).not.toEqual({});
  });

  it('is read back only in exactly its shape', () => {
    expect(parsePrelaunch('{')).toBe('not JSON');
    expect(parsePrelaunch('null')).toBe('not an object');
    expect(parsePrelaunch('{"headless":"yes","isolated":false}')).toMatch(/booleans/);
    expect(parsePrelaunch('{"headless":true,"isolated":false,"userDataDir":1}')).toMatch(/strings/);
    expect(parsePrelaunch('{"headless":true,"isolated":false,"args":["--a",2]}')).toMatch(
      /args must be strings/,
    );
    expect(parsePrelaunch('{"headless":true,"isolated":true}')).toMatch(/isolated context/);
    expect(parsePrelaunch('{"headless":false,"isolated":false}')).toMatch(/only a headless/);
    expect(parsePrelaunch('{"headless":true,"isolated":false,"userDataDir":"/p"}')).toEqual({
      headless: true,
      isolated: false,
      userDataDir: '/p',
      executablePath: undefined,
      args: undefined,
    });
  });
});

describe('the browser started ahead', () => {
  let dir: string;
  let fakeBrowser: string;
  const savedExtensionDir = process.env['BROWSER_AGENT_EXTENSION_DIR'];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ba-prelaunch-'));
    // A stand-in for Chromium: takes any flags, keeps the pipes open, runs until killed.
    fakeBrowser = join(dir, 'fake-browser');
    writeFileSync(fakeBrowser, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(fakeBrowser, 0o755);
    writeFileSync(join(dir, 'manifest.json'), '{}');
    process.env['BROWSER_AGENT_EXTENSION_DIR'] = dir;
  });

  afterAll(() => {
    if (savedExtensionDir === undefined) delete process.env['BROWSER_AGENT_EXTENSION_DIR'];
    else process.env['BROWSER_AGENT_EXTENSION_DIR'] = savedExtensionDir;
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (args: string[] = []): LaunchOptions => ({
    headless: true,
    isolated: false,
    executablePath: fakeBrowser,
    userDataDir: join(dir, 'profile'),
    args,
  });
  const envFor = (o: LaunchOptions): NodeJS.ProcessEnv => ({ ...prelaunchEnv(o) });

  it('is taken by a launch of the same command line, and the variable is not passed on', async () => {
    const env = envFor(options(['--lang=de']));
    const log = recordingLog();
    const pre = Prelaunch.fromEnv(env, dir, log);
    expect(env[PRELAUNCH_ENV]).toBeUndefined();
    expect(pre).toBeDefined();
    const taken = pre?.take(launchCommand(options(['--lang=de'])));
    expect(taken?.child.exitCode).toBeNull();
    expect(log.lines.join('\n')).toMatch(/the session took the browser started ahead/);
    // Taken once: a second launch in this daemon starts its own.
    expect(pre?.take(launchCommand(options(['--lang=de'])))).toBeUndefined();
    taken?.child.kill('SIGKILL');
    await taken?.exited;
  });

  it('is killed at once when the launch asks for another command line (the profile is freed)', async () => {
    let spawned: SpawnedBrowser | undefined;
    const pre = Prelaunch.fromEnv(envFor(options()), dir, recordingLog(), (...a) => {
      spawned = spawnChromium(...a);
      return spawned;
    });
    expect(spawned?.child.exitCode).toBeNull();
    const other = launchCommand(options(['--proxy-server=http://127.0.0.1:1']));
    expect(pre?.take(other)).toBeUndefined();
    // Gone before the launch that asked spawns on the same profile: SIGKILL, no grace.
    await spawned?.exited;
    expect(spawned?.child.signalCode).toBe('SIGKILL');
    // Nor is it handed to a later launch that would have matched.
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
  });

  it('is killed at once when a launch comes while it closes unused (no grace on the profile)', async () => {
    let spawned: SpawnedBrowser | undefined;
    const pre = Prelaunch.fromEnv(envFor(options()), dir, recordingLog(), (...a) => {
      spawned = spawnChromium(...a);
      return spawned;
    });
    // The stand-in never answers Browser.close: the close would wait its 2 s grace.
    const closing = pre?.close('no session asked for it');
    await new Promise((r) => setTimeout(r, 50));
    const asked = Date.now();
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
    await spawned?.exited;
    expect(Date.now() - asked).toBeLessThan(1_000);
    expect(spawned?.child.signalCode).toBe('SIGKILL');
    await closing;
  });

  it('is not handed out once it has exited', async () => {
    const log = recordingLog();
    const pre = Prelaunch.fromEnv(envFor(options()), dir, log, (exe, args, stateDir, l) => {
      const spawned = spawnChromium(exe, args, stateDir, l);
      spawned.child.kill('SIGKILL');
      return spawned;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/has exited; launching again/);
  });

  it('starts nothing, and says why, when the variable is malformed or names no browser', () => {
    const log = recordingLog();
    expect(Prelaunch.fromEnv({ [PRELAUNCH_ENV]: '{"headless":1}' }, dir, log)).toBeUndefined();
    const missing = { ...options(), executablePath: join(dir, 'no-such-browser') };
    expect(Prelaunch.fromEnv(envFor(missing), dir, log)).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/ignored: headless and isolated must be booleans/);
    expect(log.lines.join('\n')).toMatch(/not started ahead: The browser given as the executable/);
    expect(Prelaunch.fromEnv({}, dir, log)).toBeUndefined();
  });

  it('is stopped when no session took it', async () => {
    let spawned: SpawnedBrowser | undefined;
    const pre = Prelaunch.fromEnv(envFor(options()), dir, recordingLog(), (...a) => {
      spawned = spawnChromium(...a);
      return spawned;
    });
    await pre?.close('the daemon stops');
    expect(spawned?.child.exitCode !== null || spawned?.child.signalCode !== null).toBe(true);
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
  });
});
