/** `browser-agent-mcp --help`, written from the entries: one line or more per flag, by concern. */
import type { SettingEntry, SettingGroup } from './setting.js';

const WIDTH = 100;
/** Where the help text starts; a longer flag pushes its first line's text one space past it. */
const TEXT_COLUMN = 27;

const HEAD = `Usage: browser-agent-mcp [options]

MCP server (stdio) that drives Chromium through the Browser Agent extension. Flags beat
environment variables, which beat the --config file; docs/configuration.md lists each flag's
variable and config key.
`;

const SUBCOMMANDS = `
       browser-agent-mcp profiles list
       browser-agent-mcp profiles prune --older-than <30d> [--dry-run]
                           List, or remove, project browser profiles unused that long
       browser-agent-mcp pairings list
       browser-agent-mcp pairings revoke <id>
                           List the browsers paired with this computer's bridge, or revoke one
`;

/** A default as --help shows it: 5000, "info"; none for an unset or false one. */
export function shownDefault(entry: SettingEntry): string | undefined {
  if (entry.defaultText !== undefined) return entry.defaultText;
  const value = entry.default;
  return value === undefined || value === false ? undefined : JSON.stringify(value);
}

/** `--headless / --headed`, `--help, -h`, `--proxy-server <url>`. */
export function flagLabel(entry: SettingEntry): string {
  if (entry.flag === undefined) return '';
  const names = [
    `--${entry.flag}`,
    ...(entry.aliases ?? []).map((a) => (a.length === 1 ? `-${a}` : `--${a}`)),
  ].join(', ');
  const negation = entry.negation === undefined ? '' : ` / --${entry.negation}`;
  const arg = entry.kind === 'bool' ? '' : ` ${entry.arg ?? '<value>'}`;
  return `${names}${negation}${arg}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function flagLines(entry: SettingEntry): string[] {
  const shown = shownDefault(entry);
  const text = entry.help.replace(/\.$/, '') + (shown === undefined ? '' : ` (default ${shown})`);
  const head = `  ${flagLabel(entry)}`;
  const first = head.length < TEXT_COLUMN ? head.padEnd(TEXT_COLUMN) : `${head} `;
  const [firstText = '', ...rest] = wrap(text, WIDTH - first.length);
  const indent = ' '.repeat(TEXT_COLUMN);
  return [first + firstText, ...wrap(rest.join(' '), WIDTH - TEXT_COLUMN).map((l) => indent + l)];
}

export function renderUsage(groups: readonly SettingGroup[]): string {
  const sections = groups.flatMap((group) => {
    const entries = Object.values(group.settings).filter((e) => e.flag !== undefined);
    if (entries.length === 0) return [];
    return [`\n${group.title}:\n${entries.flatMap(flagLines).join('\n')}\n`];
  });
  return HEAD + sections.join('') + SUBCOMMANDS;
}
