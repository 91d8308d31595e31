import { describe, expect, it } from 'vitest';
import { ALL_SETTINGS } from './options/index.js';
import { parseCli, USAGE } from './cliOptions.js';
import { setting } from './setting.js';
import { renderUsage } from './usage.js';

describe('--help', () => {
  it('shows every flag with its value and default, by concern, within 100 columns', () => {
    for (const entry of ALL_SETTINGS) {
      if (entry.flag !== undefined)
        expect(USAGE).toMatch(new RegExp(`\\n  --${entry.flag}[ ,/]|\\n  --${entry.flag}\\n`));
    }
    expect(USAGE).toContain('\nLaunch mode (--launch):\n');
    expect(USAGE).toMatch(/\n {2}--timeout-action <ms> +Input actions .*\n.*\(default 5000\)/);
    expect(USAGE).toContain('  --headless / --headed ');
    expect(USAGE).toContain('  --help, -h ');
    expect(USAGE).toContain('(default "info")');
    expect(USAGE).toContain('browser-agent-mcp pairings revoke <id>');
    expect(USAGE.split('\n').filter((l) => l.length > 100)).toEqual([]);
  });

  it('takes -h as --help, and a flag with its negation is an error', () => {
    expect(parseCli(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseCli(['--headed', '--headless'], {})).toEqual({
      kind: 'error',
      message: '--headless and --headed contradict each other.',
    });
  });

  it('adds a new entry without other changes: its flag, alias and default', () => {
    const text = renderUsage([
      {
        title: 'Pages',
        settings: {
          slowMo: setting({
            key: 'browser.slowMo',
            flag: 'slow-mo',
            aliases: ['slowmo'],
            kind: 'int',
            default: 250,
            arg: '<ms>',
            help: 'Wait this long between actions.',
          }),
        },
      },
    ]);
    expect(text).toContain(
      '\nPages:\n  --slow-mo, --slowmo <ms> Wait this long between actions (default 250)\n',
    );
  });
});
