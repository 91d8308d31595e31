import { describe, expect, it } from 'vitest';
import { parseCli } from './cliOptions.js';
import { resolveSettings } from './config.js';

describe('parseCli', () => {
  it('runs attached to the user Chrome by default', () => {
    expect(parseCli([], {})).toMatchObject({
      kind: 'run',
      options: { launch: undefined, bridgePort: undefined, caps: [], http: undefined },
    });
  });
  it('starts the browser ahead unless --no-launch-ahead', () => {
    const ahead = (args: string[]): boolean => {
      const parsed = parseCli(args, {});
      if (parsed.kind !== 'run') throw new Error(`not a run: ${parsed.kind}`);
      return resolveSettings(parsed.options.settingFlags, false, {}, true).launchAhead;
    };
    expect(ahead(['--launch'])).toBe(true);
    expect(ahead(['--launch', '--no-launch-ahead'])).toBe(false);
    expect(ahead(['--launch', '--launch-ahead'])).toBe(true);
  });
  it('launches headless without a display and headed with one', () => {
    const noDisplay = parseCli(['--launch'], {});
    const withDisplay = parseCli(['--launch'], { DISPLAY: ':0' });
    if (process.platform === 'linux') {
      expect(noDisplay).toMatchObject({ options: { launch: { headless: true } } });
      expect(withDisplay).toMatchObject({ options: { launch: { headless: false } } });
    }
    expect(parseCli(['--launch', '--headless'], { DISPLAY: ':0' })).toMatchObject({
      options: { launch: { headless: true } },
    });
    expect(parseCli(['--launch', '--headed'], {})).toMatchObject({
      options: { launch: { headless: false } },
    });
  });
  it('carries profile options', () => {
    expect(
      parseCli(
        ['--launch', '--isolated', '--executable-path', '/x/chrome', '--user-data-dir', '/p'],
        {},
      ),
    ).toMatchObject({
      options: { launch: { isolated: true, executablePath: '/x/chrome', userDataDir: '/p' } },
    });
  });
  it('explains bad flags', () => {
    expect(parseCli(['--bogus'], {})).toMatchObject({ kind: 'error' });
    const message = (argv: string[]): string => {
      const r = parseCli(argv, {});
      return r.kind === 'error' ? r.message : `no error for ${argv.join(' ')}`;
    };
    expect(message(['--launch', '--headless', '--headed'])).toContain('contradict');
    expect(message(['--bridge-port', '99999'])).toContain('port');
  });
  it('leaves launch flags without --launch to the settings, where the config file may launch', () => {
    expect(parseCli(['--isolated', '--headed', '--user-data-dir', '/p'], {})).toMatchObject({
      kind: 'run',
      options: {
        launch: undefined,
        settingFlags: { isolated: true, headless: false, userDataDir: '/p' },
      },
    });
  });
  it('takes --project as a checked real path, with or without --launch', () => {
    const dir = process.cwd();
    expect(parseCli(['--project', dir], {})).toMatchObject({ options: { project: dir } });
    expect(parseCli(['--launch', '--project', dir], {})).toMatchObject({
      options: { project: dir, launch: { isolated: false } },
    });
    const bad = parseCli(['--project', 'relative/dir'], {});
    expect(bad.kind === 'error' && bad.message).toContain('must be absolute');
  });
});
