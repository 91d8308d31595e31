import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSACTION_LIMITS } from '@browser-agent/protocol';
import { resolveSettings, sessionSettingsOf, type SettingFlags } from './config.js';
import { ConfigError } from './configFile.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ba-config-'));
function configFile(value: unknown): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}
const resolve = (
  values: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv = {},
  config?: unknown,
  launchFlags: Omit<SettingFlags, 'config' | 'values'> = {},
) =>
  resolveSettings(
    { config: config === undefined ? undefined : configFile(config), values, ...launchFlags },
    false,
    env,
    true,
  );

describe('resolveSettings', () => {
  it('has the documented defaults', () => {
    const s = resolve({});
    expect(s).toMatchObject({
      launch: undefined,
      viewport: undefined,
      actionTimeoutMs: 5000,
      navigationTimeoutMs: 30000,
      policy: undefined,
      outputDir: undefined,
      screenshots: { maxFileBytes: 10 * 1024 * 1024, maxFiles: 100 },
      toolNames: 'default',
    });
  });

  it('launches from the config file, with a 1280x720 viewport by default', () => {
    const s = resolve({}, {}, { browser: { launch: true, headless: false } });
    expect(s.launch).toEqual({ isolated: false, headless: false });
    expect(s.viewport).toEqual({ width: 1280, height: 720 });
  });

  it('starts the browser ahead in launch mode unless told not to (flag, variable or file)', () => {
    const launching = { browser: { launch: true } };
    expect(resolve({}).launchAhead).toBe(false);
    expect(resolve({}, {}, launching).launchAhead).toBe(true);
    expect(resolve({}, { BROWSER_AGENT_LAUNCH_AHEAD: '0' }, launching).launchAhead).toBe(false);
    expect(resolve({}, {}, { browser: { launch: true, launchAhead: false } }).launchAhead).toBe(
      false,
    );
  });

  it('counts browser.launch in the file as launch mode for the launch flags and their variables', () => {
    const file = { browser: { launch: true } };
    // Any file that exists stands in for a browser here.
    const browser = process.execPath;
    const flags = { isolated: true, headless: false, executablePath: browser };
    expect(resolve({}, {}, file, flags).launch).toEqual({
      isolated: true,
      headless: false,
      executablePath: browser,
    });
    expect(resolve({}, {}, file, { userDataDir: '/profiles/a' }).launch).toEqual({
      isolated: false,
      userDataDir: '/profiles/a',
      headless: true,
    });
    const env = { BROWSER_AGENT_HEADLESS: '0', CHROME_PATH: browser };
    expect(resolve({}, env, file).launch).toEqual({
      isolated: false,
      headless: false,
      executablePath: browser,
    });
  });

  it('refuses a browser executable that does not exist, naming it', () => {
    const file = { browser: { launch: true } };
    expect(() => resolve({}, {}, file, { executablePath: '/nonexistent/chrome' })).toThrow(
      /does not exist: \/nonexistent\/chrome\. Fix --executable-path/,
    );
    // Each source is named where the path came from, never a flag the user did not give.
    const fromEnv = () => resolve({}, { CHROME_PATH: '/nonexistent/env-chrome' }, file);
    expect(fromEnv).toThrow(/env-chrome\. It comes from the CHROME_PATH environment variable/);
    expect(fromEnv).not.toThrow(/--executable-path/);
    const inFile = { browser: { launch: true, executablePath: '/nonexistent/file-chrome' } };
    expect(() => resolve({}, {}, inFile)).toThrow(
      /file-chrome\. Fix browser\.executablePath in the config file/,
    );
  });

  it('takes the launch flags with --launch', () => {
    const flags = { values: {}, isolated: true, userDataDir: '/p', headless: false };
    expect(resolveSettings(flags, true, {}, true).launch).toEqual({
      isolated: true,
      userDataDir: '/p',
      headless: false,
    });
  });

  it('refuses a launch flag when neither --launch nor the file launches', () => {
    for (const [flags, name] of [
      [{ isolated: true }, '--isolated'],
      [{ userDataDir: '/p' }, '--user-data-dir'],
      [{ headless: true }, '--headless'],
      [{ headless: false }, '--headed'],
      [{ executablePath: '/x' }, '--executable-path'],
    ] as const) {
      expect(() => resolve({}, {}, { browser: { launch: false } }, flags)).toThrow(
        `${name} only applies in launch mode: add --launch, or set "browser": { "launch": true } in the config file.`,
      );
      expect(() => resolve({}, {}, undefined, flags)).toThrow(ConfigError);
    }
    // The variables are often set for other tools, so they are not refused.
    expect(resolve({}, { BROWSER_AGENT_HEADLESS: '1', CHROME_PATH: '/x' }).launch).toBeUndefined();
  });

  it('takes a flag over an env var over the file', () => {
    const config = { viewport: { width: 800, height: 600 }, timeouts: { actionMs: 100 } };
    expect(resolve({}, {}, config).viewport).toEqual({ width: 800, height: 600 });
    const env = { BROWSER_AGENT_VIEWPORT: '900x650', BROWSER_AGENT_ACTION_TIMEOUT_MS: '200' };
    expect(resolve({}, env, config)).toMatchObject({
      viewport: { width: 900, height: 650 },
      actionTimeoutMs: 200,
    });
    expect(resolve({ viewport: '1000x700', 'timeout-action': '300' }, env, config)).toMatchObject({
      viewport: { width: 1000, height: 700 },
      actionTimeoutMs: 300,
    });
  });

  it('builds the origin policy and the session settings', () => {
    const s = resolve(
      { 'blocked-origins': 'https://a.test, *.b.test' },
      { BROWSER_AGENT_BLOCK_PRIVATE_NETWORK: '1' },
      { allowedOrigins: ['https://c.test'], allowFileUrls: true },
    );
    expect(s.policy).toEqual({
      allowedOrigins: ['https://c.test'],
      blockedOrigins: ['https://a.test', '*.b.test'],
      blockPrivateNetwork: true,
    });
    expect(sessionSettingsOf(s)).toEqual({
      actionTimeoutMs: 5000,
      navigationTimeoutMs: 30000,
      allowFileUrls: true,
    });
  });

  it('names the bad key, the source and the value', () => {
    expect(() => resolve({}, {}, { viewport: { width: 'wide', height: 1 } })).toThrow(
      'config viewport.width: expected a positive integer, got "wide"',
    );
    expect(() => resolve({}, {}, { screenshots: { maxFiles: 3, keep: 1 } })).toThrow(
      'unknown key screenshots.keep',
    );
    expect(() => resolve({}, { BROWSER_AGENT_HEADLESS: 'maybe' })).toThrow(
      'BROWSER_AGENT_HEADLESS browser.headless: expected true or false, got "maybe"',
    );
    expect(() => resolve({ 'tool-names': 'puppeteer' })).toThrow(
      '--tool-names toolNames: expected "default" or "executeautomation"',
    );
    expect(() => resolve({}, {}, '[1,')).toThrow(ConfigError);
  });

  it('reads a config file saved with a UTF-8 byte-order mark', () => {
    const s = resolve({}, {}, '\uFEFF{"timeouts": {"actionMs": 1234}}');
    expect(s.actionTimeoutMs).toBe(1234);
  });

  it('refuses an origin entry it could never match, naming it', () => {
    expect(() => resolve({}, {}, { allowedOrigins: ['http://'] })).toThrow(
      'config allowedOrigins.0',
    );
    expect(() => resolve({ 'blocked-origins': 'a.test/path' })).toThrow('a.test/path');
  });
});

describe('transaction limits', () => {
  it('default to a 5 s rollback, 10 checkpoints and no automatic ones', () => {
    expect(resolve({}).transactions).toEqual(DEFAULT_TRANSACTION_LIMITS);
    expect(DEFAULT_TRANSACTION_LIMITS).toEqual({ rollbackTimeoutMs: 5_000, maxCheckpoints: 10 });
  });

  it('are read from every variable into its field', () => {
    const env = {
      BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '2500',
      BROWSER_AGENT_MAX_CHECKPOINTS: ' 3 ',
      BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: '4',
      BROWSER_AGENT_AUTO_CHECKPOINT_SECONDS: '60',
    };
    expect(resolve({}, env).transactions).toEqual({
      rollbackTimeoutMs: 2500,
      maxCheckpoints: 3,
      autoCheckpointEveryCalls: 4,
      autoCheckpointEverySeconds: 60,
    });
  });

  it('take a variable over the file, key by key, with the defaults under both', () => {
    const env = { BROWSER_AGENT_MAX_CHECKPOINTS: '4' };
    const file = { transactions: { maxCheckpoints: 9, autoCheckpointEverySeconds: 30 } };
    expect(resolve({}, env, file).transactions).toEqual({
      rollbackTimeoutMs: 5_000,
      maxCheckpoints: 4,
      autoCheckpointEverySeconds: 30,
    });
  });

  it('name the variable and the value when it is not a whole number', () => {
    expect(() => resolve({}, { BROWSER_AGENT_MAX_CHECKPOINTS: 'ten' })).toThrow(
      'BROWSER_AGENT_MAX_CHECKPOINTS transactions.maxCheckpoints: expected a whole number from 1 to 100, got "ten"',
    );
    expect(() => resolve({}, { BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: '-1' })).toThrow(
      /BROWSER_AGENT_AUTO_CHECKPOINT_CALLS .*got -1/,
    );
    expect(() => resolve({}, { BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '2.5' })).toThrow(
      /BROWSER_AGENT_ROLLBACK_TIMEOUT_MS .*got "2.5"/,
    );
  });

  it('name the variable or key and the range when a value is out of range', () => {
    expect(() => resolve({}, { BROWSER_AGENT_MAX_CHECKPOINTS: '0' })).toThrow(
      'BROWSER_AGENT_MAX_CHECKPOINTS transactions.maxCheckpoints: expected a whole number from 1 to 100, got 0',
    );
    expect(() => resolve({}, { BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '50' })).toThrow(
      /BROWSER_AGENT_ROLLBACK_TIMEOUT_MS .*from 100 to 600000, got 50/,
    );
    expect(() => resolve({}, {}, { transactions: { maxCheckpoints: 101 } })).toThrow(
      'config transactions.maxCheckpoints: expected a whole number from 1 to 100, got 101',
    );
  });
});

describe('recordSteps (#26)', () => {
  it('is off in launch mode unless configured on, and left to the panel otherwise', () => {
    const launch = { browser: { launch: true } };
    expect(sessionSettingsOf(resolve({}, {}, launch)).recordSteps).toBe(false);
    expect(sessionSettingsOf(resolve({ 'record-steps': true }, {}, launch)).recordSteps).toBe(true);
    expect(
      sessionSettingsOf(resolve({}, { BROWSER_AGENT_RECORD_STEPS: '1' }, launch)).recordSteps,
    ).toBe(true);
    expect(sessionSettingsOf(resolve({})).recordSteps).toBeUndefined();
    expect(sessionSettingsOf(resolve({}, {}, { recordSteps: false })).recordSteps).toBe(false);
  });
});
