import { describe, expect, it } from 'vitest';
import { launchExtras } from './launchArgs.js';
import { parseCli } from './cliOptions.js';
import { resolveSettings } from './config.js';

function settingsOf(argv: string[]) {
  const run = parseCli(argv, {});
  if (run.kind !== 'run') throw new Error(`parse: ${JSON.stringify(run)}`);
  return resolveSettings(run.options.settingFlags, run.options.launch !== undefined, {}, true);
}

describe('launch extras (proxy, launch args, permissions)', () => {
  it('turns the proxy into Chromium flags after the config args', () => {
    expect(
      launchExtras({
        args: ['--lang=de'],
        proxy: { server: 'http://127.0.0.1:3128', bypass: '*.corp.test,localhost' },
      }).args,
    ).toEqual([
      '--lang=de',
      '--proxy-server=http://127.0.0.1:3128',
      '--proxy-bypass-list=*.corp.test,localhost',
    ]);
  });

  it("maps Playwright's permission names to CDP's and refuses unknown ones", () => {
    expect(
      launchExtras({ grantPermissions: ['geolocation', 'camera', 'clipboard-read'] })
        .grantPermissions,
    ).toEqual(['geolocation', 'videoCapture', 'clipboardReadWrite']);
    expect(() => launchExtras({ grantPermissions: ['teleport'] })).toThrow(
      /unknown permission "teleport"; known: geolocation/,
    );
  });

  it('refuses flags the launcher owns or that open the browser to any local process', () => {
    expect(() => launchExtras({ args: ['--remote-debugging-port=9222'] })).toThrow(
      /--remote-debugging-port is set by the launcher/,
    );
    expect(() => launchExtras({ args: ['--user-data-dir=/tmp/x'] })).toThrow(/--user-data-dir/);
    expect(() => launchExtras({ args: ['lang=de'] })).toThrow(/is not a flag/);
  });

  it('carries the flags into the launch options, and refuses them outside launch mode', () => {
    const s = settingsOf([
      '--launch',
      '--proxy-server',
      'socks5://127.0.0.1:1080',
      '--proxy-bypass',
      'a.test',
      '--grant-permissions',
      'notifications',
    ]);
    expect(s.launch?.args).toEqual([
      '--proxy-server=socks5://127.0.0.1:1080',
      '--proxy-bypass-list=a.test',
    ]);
    expect(s.launch?.grantPermissions).toEqual(['notifications']);
    expect(() => settingsOf(['--proxy-server', 'http://127.0.0.1:3128'])).toThrow(
      /--proxy-server only applies in launch mode/,
    );
    expect(() => settingsOf(['--launch', '--proxy-bypass', 'a.test'])).toThrow(
      /--proxy-bypass needs --proxy-server/,
    );
  });
});

describe('device emulation and init scripts', () => {
  it('gives a known device its viewport, pixel ratio, touch and user agent; --viewport wins', () => {
    const s = settingsOf(['--device', 'pixel 7']);
    expect(s.viewport).toEqual({ width: 412, height: 839 });
    expect(s.emulation).toMatchObject({ deviceScaleFactor: 2.625, mobile: true, touch: true });
    expect(s.emulation?.userAgent).toContain('Pixel 7');
    expect(settingsOf(['--device', 'iPhone 15', '--viewport', '800x600']).viewport).toEqual({
      width: 800,
      height: 600,
    });
    expect(settingsOf(['--mobile']).emulation).toEqual({
      mobile: true,
      touch: true,
      deviceScaleFactor: 2,
    });
    expect(() => settingsOf(['--device', 'Nokia 3310'])).toThrow(/unknown device "Nokia 3310"/);
  });

  it('refuses an init script that cannot be read, naming it', () => {
    expect(() => settingsOf(['--init-script', '/nonexistent/init.js'])).toThrow(
      /--init-script: cannot read \/nonexistent\/init.js \(ENOENT\)/,
    );
  });

  it('takes --output-max-size as the cap on the screenshots kept', () => {
    expect(settingsOf(['--output-max-size', '1048576']).screenshots.maxTotalBytes).toBe(1048576);
  });
});
