import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launchSettings, SETTING_GROUPS } from './options/index.js';
import {
  DOC_REGIONS,
  regionOf,
  renderRegions,
  withoutPadding,
  withRegion,
} from './settingsDocs.js';

const read = (doc: string) => readFileSync(new URL(`../../../../${doc}`, import.meta.url), 'utf8');

/** The regions of the files on disk that differ from what the entries render. */
function drifted(render: Record<string, string>): string[] {
  return Object.entries(DOC_REGIONS).flatMap(([doc, names]) => {
    const text = read(doc);
    return names.filter((name) => {
      const onDisk = regionOf(text, name);
      return onDisk === undefined || withoutPadding(onDisk) !== withoutPadding(render[name] ?? '');
    });
  });
}

describe('the settings tables in docs/', () => {
  it('match the entries (run pnpm docs:tools after changing a setting)', () => {
    expect(drifted(renderRegions())).toEqual([]);
  });

  it('drift when an entry changes: a renamed variable, a new setting', () => {
    const [first, ...rest] = SETTING_GROUPS;
    if (first === undefined) throw new Error('no groups');
    const renamed = {
      ...first,
      settings: { ...first.settings, launch: { ...launchSettings.launch, env: 'BA_LAUNCH' } },
    };
    expect(drifted(renderRegions([renamed, ...rest]))).toEqual(['settings']);
    const added = {
      ...first,
      settings: {
        ...first.settings,
        slowMo: {
          key: 'browser.slowMo',
          flag: 'slow-mo',
          kind: 'int' as const,
          help: 'Wait this long between actions.',
          theirs: [{ flag: '--slow-mo' }],
        },
      },
    };
    expect(drifted(renderRegions([added, ...rest]))).toEqual(['settings', 'settings:flags']);
  });

  it('lists every flag, variable and key once, with the flag as --help shows it', () => {
    const tables = renderRegions()['settings'] ?? '';
    for (const entry of SETTING_GROUPS.flatMap((g) => Object.values(g.settings))) {
      for (const name of [entry.flag && `--${entry.flag}`, entry.env, entry.key]) {
        if (name) expect(tables.split(`\`${name}`).length - 1, name).toBeGreaterThanOrEqual(1);
      }
    }
    expect(tables).toContain('| `--headless / --headed` | `BROWSER_AGENT_HEADLESS` |');
    expect(tables).toContain('`--timeout-action <ms>`');
  });

  it('ignore the padding prettier adds, not the cells', () => {
    const a = '| a   | b |\n| --- | - |\n| x   | y |';
    expect(withoutPadding(a)).toBe(withoutPadding('| a | b |\n| --- | --- |\n| x | y |'));
    expect(withoutPadding(a)).not.toBe(withoutPadding('| a | b |\n| --- | --- |\n| x | z |'));
    expect(withoutPadding('| `a \\| b` | c |')).toBe('`a \\| b`|c');
  });

  it('replace only the body between the markers, and refuse a file without them', () => {
    const name = 'settings:keys';
    const doc = `before\n\n<!-- ${name}: generated from mcp-server/src/server/settings/options by pnpm docs:tools -->\nold\n<!-- /${name} -->\nafter\n`;
    const next = withRegion(doc, name, 'new');
    expect(regionOf(next, name)).toBe('new');
    expect(next.startsWith('before')).toBe(true);
    expect(next.endsWith('after\n')).toBe(true);
    expect(() => withRegion('no markers', name, 'x')).toThrow('missing markers');
  });
});
