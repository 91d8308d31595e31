import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../shared/logger.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { killGroup, launchCommand, type LaunchOptions } from './browserSpawn.js';
import { startBrowserForDaemon, type HandedBrowser } from './browserHandover.js';
import { PRELAUNCH_ENV, prelaunchEnv, prelaunchOptions } from '../../shared/prelaunchEnv.js';
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
    const options = prelaunchOptions(launch);
    expect(options).toEqual({
      headless: true,
      isolated: false,
      executablePath: undefined,
      userDataDir: '/p/profile',
      args: ['--lang=de'],
    });
    if (options === undefined) return;
    const env = prelaunchEnv(options, 4321);
    expect(JSON.parse(env[PRELAUNCH_ENV] ?? '')).toEqual({
      headless: true,
      isolated: false,
      userDataDir: '/p/profile',
      args: ['--lang=de'],
      pid: 4321,
    });
  });

  it('names nothing for a headed browser, an isolated context, or extension mode', () => {
    expect(
      prelaunchOptions({ headless: false, isolated: false, userDataDir: '/p' }),
    ).toBeUndefined();
    expect(prelaunchOptions({ headless: true, isolated: true })).toBeUndefined();
    expect(prelaunchOptions(undefined)).toBeUndefined();
    // --isolated with a profile of its own is a browser of its own: started ahead.
    expect(prelaunchOptions({ headless: true, isolated: true, userDataDir: '/p' })).toBeDefined();
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
    // The pid is what a hung browser's group is killed by: never 0, 1, negative or a string.
    for (const pid of ['0', '1', '-5', '"12"', '1.5', 'null'])
      expect(parsePrelaunch(`{"headless":true,"isolated":false,"pid":${pid}}`)).toMatch(/pid/);
    expect(parsePrelaunch('{"headless":true,"isolated":false,"userDataDir":"/p"}')).toMatch(/pid/);
    expect(
      parsePrelaunch('{"headless":true,"isolated":false,"userDataDir":"/p","pid":4321}'),
    ).toEqual({
      pid: 4321,
      headless: true,
      isolated: false,
      userDataDir: '/p',
      executablePath: undefined,
      args: undefined,
    });
  });
});

/** Whether `pid` is gone within `ms` (a killed child is a zombie until Node reaps it). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return !pidAlive(pid);
}

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

  /** What the server does before it spawns the daemon, then the daemon's adoption of it. */
  function handOver(
    o: LaunchOptions,
    log = recordingLog(),
  ): {
    handed: HandedBrowser;
    pre: Prelaunch | undefined;
    env: NodeJS.ProcessEnv;
    pid: number;
  } {
    const handed = startBrowserForDaemon(o, dir, log);
    if (handed === undefined) throw new Error(`not started: ${log.lines.join('; ')}`);
    const env: NodeJS.ProcessEnv = { ...handed.env };
    const pid = (JSON.parse(env[PRELAUNCH_ENV] ?? '{}') as { pid: number }).pid;
    const [toBrowser, fromBrowser] = handed.pipe;
    const pre = Prelaunch.fromEnv(env, log, () => ({ toBrowser, fromBrowser }));
    return { handed, pre, env, pid };
  }

  it('is taken by a launch of the same command line, and the variable is not passed on', async () => {
    const log = recordingLog();
    const { pre, env, pid } = handOver(options(['--lang=de']), log);
    expect(env[PRELAUNCH_ENV]).toBeUndefined();
    expect(pre).toBeDefined();
    expect(pidAlive(pid)).toBe(true);
    const taken = pre?.take(launchCommand(options(['--lang=de'])));
    expect(taken?.pid).toBe(pid);
    expect(taken?.running()).toBe(true);
    expect(log.lines.join('\n')).toMatch(/took over .*fake-browser.*pid \d+/);
    expect(log.lines.join('\n')).toMatch(/the session took the browser started ahead/);
    // Taken once: a second launch in this daemon starts its own.
    expect(pre?.take(launchCommand(options(['--lang=de'])))).toBeUndefined();
    killGroup(pid, 'SIGKILL');
    await taken?.exited;
    expect(taken?.running()).toBe(false);
  });

  it('is killed at once when the launch asks for another command line (the profile is freed)', async () => {
    const { pre, pid } = handOver(options());
    const other = launchCommand(options(['--proxy-server=http://127.0.0.1:1']));
    const asked = Date.now();
    expect(pre?.take(other)).toBeUndefined();
    // Gone before the launch that asked spawns on the same profile: SIGKILL, no grace.
    expect(await goneWithin(pid, 2_000)).toBe(true);
    expect(Date.now() - asked).toBeLessThan(1_000);
    // Nor is it handed to a later launch that would have matched.
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
  });

  it('is killed at once when a launch comes while it closes unused (no grace on the profile)', async () => {
    const { pre, pid } = handOver(options());
    // The stand-in never answers Browser.close: the close would wait its 2 s grace.
    const closing = pre?.close('no session asked for it');
    await new Promise((r) => setTimeout(r, 50));
    const asked = Date.now();
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
    await closing;
    expect(Date.now() - asked).toBeLessThan(1_000);
    expect(await goneWithin(pid, 500)).toBe(true);
  });

  it('is not handed out once it has exited', async () => {
    const log = recordingLog();
    const { pre, pid } = handOver(options(), log);
    killGroup(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/has exited; launching again/);
  });

  it('starts nothing, and says why, when the launch names no browser', () => {
    const log = recordingLog();
    const missing = { ...options(), executablePath: join(dir, 'no-such-browser') };
    expect(startBrowserForDaemon(missing, dir, log)).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/not started ahead: The browser given as the executable/);
  });

  it('closes a pipe that came with a malformed variable: the browser at its end exits', () => {
    const handed = startBrowserForDaemon(options(), dir, recordingLog());
    if (handed === undefined) throw new Error('not started');
    const [toBrowser, fromBrowser] = handed.pipe;
    const log = recordingLog();
    const pre = Prelaunch.fromEnv({ [PRELAUNCH_ENV]: '{"headless":true}' }, log, () => ({
      toBrowser,
      fromBrowser,
    }));
    expect(pre).toBeUndefined();
    // The stand-in (sleep) ignores its pipe closing; the real Chromium exits then
    // (launchedBrowser.chromium.test.ts).
    expect(toBrowser.destroyed && fromBrowser.destroyed).toBe(true);
    expect(log.lines.join('\n')).toMatch(/ignored: headless and isolated must be booleans/);
    const { pid } = JSON.parse(handed.env[PRELAUNCH_ENV] ?? '{}') as { pid: number };
    killGroup(pid, 'SIGKILL');
  });

  it('adopts nothing, and says why, when the variable is malformed or no pipe came with it', () => {
    const log = recordingLog();
    const noPipe = () => 'fd 3 is not open';
    expect(Prelaunch.fromEnv({ [PRELAUNCH_ENV]: '{"headless":1}' }, log, noPipe)).toBeUndefined();
    const env = { [PRELAUNCH_ENV]: JSON.stringify({ ...options(), pid: 4321 }) };
    expect(Prelaunch.fromEnv(env, log, noPipe)).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/ignored: headless and isolated must be booleans/);
    expect(log.lines.join('\n')).toMatch(/ignored: fd 3 is not open/);
    expect(Prelaunch.fromEnv({}, log, noPipe)).toBeUndefined();
  });

  it('is stopped when no session took it', async () => {
    const { pre, pid } = handOver(options());
    await pre?.close('the daemon stops');
    expect(await goneWithin(pid, 500)).toBe(true);
    expect(pre?.take(launchCommand(options()))).toBeUndefined();
  });

  it('writes its output to the state directory the server names', () => {
    expect(existsSync(join(dir, 'chromium.log'))).toBe(true);
  });
});
