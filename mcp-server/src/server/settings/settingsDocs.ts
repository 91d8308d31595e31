/**
 * The options tables of docs/configuration.md and docs/migration-playwright-mcp.md, written from
 * the entries (options/) and the gaps (playwrightGaps.ts). `pnpm docs:tools` writes them between
 * `<!-- settings:NAME -->` markers (scripts/write-settings-docs.mjs); settingsDocs.test.ts fails
 * when the files drift from the entries.
 */
import type { SettingEntry, SettingGroup } from './setting.js';
import { SETTING_GROUPS } from './options/index.js';
import { flagLabel } from './usage.js';
import { FLAG_GAPS, KEY_GAPS, type Gap } from './playwrightGaps.js';

/** The generated regions of each file (paths from the repository root). */
export const DOC_REGIONS = {
  'docs/configuration.md': ['settings'],
  'docs/migration-playwright-mcp.md': ['settings:flags', 'settings:keys'],
} as const;

const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

/** Plain help text as a table cell: markup characters are escaped, not interpreted. */
const cell = (text: string) => text.replace(/[\\*|<>]/g, (c) => `\\${c}`);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)];
}

function docsDefault(entry: SettingEntry): string {
  if (entry.defaultText !== undefined) return cell(entry.defaultText);
  const value = entry.default;
  return value === undefined ? '' : code(JSON.stringify(value).replace(/^"(.*)"$/, '$1'));
}

/** One table per concern: flag, variable, config key, default, what it does. */
export function renderSettingsTables(groups: readonly SettingGroup[]): string {
  const out: string[] = [];
  for (const group of groups) {
    const rows = Object.values(group.settings).map((e) => [
      e.flag === undefined ? '' : code(flagLabel(e)),
      e.env === undefined ? '' : code(e.env),
      e.key === undefined ? '' : code(e.key),
      docsDefault(e),
      cell(e.help),
    ]);
    out.push('', `### ${group.title}`, '');
    out.push(...table(['flag', 'variable', 'config key', 'default', 'what it does'], rows));
  }
  return out.slice(1).join('\n');
}

function statusOf(theirs: string, ours: string, accepted: readonly string[]): string {
  if (theirs === ours) return 'same';
  return accepted.includes(theirs) ? 'accepted' : 'ours';
}

function gapRows(gaps: readonly Gap[]): string[][] {
  return gaps.map((g) => [g.names.map(code).join(', '), '—', 'no', g.note]);
}

const MIGRATION_HEADER = ['Playwright MCP', 'ours', 'status', 'note'];

/** Rows for their flags (`side: 'flag'`) or their config keys (`side: 'key'`). */
export function renderMigrationTable(
  groups: readonly SettingGroup[],
  side: 'flag' | 'key',
): string {
  const rows: string[][] = [];
  for (const entry of groups.flatMap((g) => Object.values(g.settings))) {
    for (const name of entry.theirs ?? []) {
      const theirs = name[side];
      if (theirs === undefined) continue;
      // A flag of theirs maps to our flag, or to our key when the setting has no flag.
      const ours =
        side === 'flag' && entry.flag !== undefined ? `--${entry.flag}` : (entry.key ?? '');
      const accepted = (entry.aliases ?? []).map((a) => `--${a}`);
      rows.push([code(theirs), code(ours), statusOf(theirs, ours, accepted), name.note ?? '']);
    }
  }
  rows.push(...gapRows(side === 'flag' ? FLAG_GAPS : KEY_GAPS));
  return table(MIGRATION_HEADER, rows).join('\n');
}

function markers(name: string): [string, string] {
  return [
    `<!-- ${name}: generated from mcp-server/src/server/settings/options by pnpm docs:tools -->`,
    `<!-- /${name} -->`,
  ];
}

/** The text between a region's markers, or undefined when the markers are missing. */
export function regionOf(doc: string, name: string): string | undefined {
  const [begin, end] = markers(name);
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return doc.slice(from + begin.length, to).trim();
}

/** The document with a region's body replaced; throws when its markers are missing. */
export function withRegion(doc: string, name: string, body: string): string {
  const [begin, end] = markers(name);
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`missing markers: ${begin} … ${end}`);
  return `${doc.slice(0, from + begin.length)}\n\n${body}\n\n${doc.slice(to)}`;
}

/** Every generated region by name, as the script writes it and the drift test expects it. */
export function renderRegions(
  groups: readonly SettingGroup[] = SETTING_GROUPS,
): Record<string, string> {
  return {
    settings: renderSettingsTables(groups),
    'settings:flags': renderMigrationTable(groups, 'flag'),
    'settings:keys': renderMigrationTable(groups, 'key'),
  };
}

/**
 * Tables as their cells, so the check ignores the padding prettier adds to align columns:
 * `| a   | b |` and `| a | b |` read the same.
 */
export function withoutPadding(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.startsWith('|')) return line.trimEnd();
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      return cells.every((c) => /^:?-+:?$/.test(c))
        ? cells.map(() => '---').join('|')
        : cells.join('|');
    })
    .join('\n');
}
