/**
 * docs/migration-playwright-mcp.md is checked against the code: a name of ours that the page
 * says exists must exist (a tool contract or alias, a flag in --help, a config schema key), and
 * every tool of Playwright MCP's default list and every flag of theirs has a row.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolContracts } from '@browser-agent/protocol';
import { USAGE } from './cliOptions.js';
import { configSchema } from './configSchema.js';
import { aliasesFor } from '../call/toolAliases.js';

const DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docs/migration-playwright-mcp.md',
);

/** Playwright MCP's default tools/list (their names, as of @playwright/mcp 0.0.8x). */
const THEIR_DEFAULT_TOOLS = [
  'browser_click',
  'browser_close',
  'browser_console_messages',
  'browser_drag',
  'browser_drop',
  'browser_evaluate',
  'browser_file_upload',
  'browser_fill_form',
  'browser_find',
  'browser_handle_dialog',
  'browser_hover',
  'browser_navigate',
  'browser_navigate_back',
  'browser_network_request',
  'browser_network_requests',
  'browser_press_key',
  'browser_resize',
  'browser_run_code_unsafe',
  'browser_select_option',
  'browser_snapshot',
  'browser_take_screenshot',
  'browser_type',
  'browser_wait_for',
  'browser_tabs',
];

/** Their command-line flags. */
const THEIR_FLAGS = [
  '--allowed-hosts',
  '--allowed-origins',
  '--blocked-origins',
  '--allow-unrestricted-file-access',
  '--block-service-workers',
  '--browser',
  '--caps',
  '--cdp-endpoint',
  '--codegen',
  '--config',
  '--console-level',
  '--device',
  '--mobile',
  '--executable-path',
  '--extension',
  '--endpoint',
  '--grant-permissions',
  '--headless',
  '--host',
  '--ignore-https-errors',
  '--init-page',
  '--init-script',
  '--isolated',
  '--image-responses',
  '--no-sandbox',
  '--output-dir',
  '--output-max-size',
  '--port',
  '--proxy-server',
  '--proxy-bypass',
  '--save-session',
  '--secrets',
  '--shared-browser-context',
  '--snapshot-mode',
  '--snapshot-boxes',
  '--storage-state',
  '--test-id-attribute',
  '--timeout-action',
  '--timeout-navigation',
  '--timeout-settle',
  '--user-agent',
  '--user-data-dir',
  '--viewport-size',
];

const STATUSES = ['same', 'ours', 'accepted', 'planned', 'no'] as const;

interface Row {
  section: string;
  theirs: string[];
  ours: string[];
  status: string;
  line: string;
}

function names(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

function rows(): Row[] {
  const out: Row[] = [];
  let section = '';
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const cells = line.split('|').slice(1, -1);
    const [theirs = '', ours = '', status = ''] = cells.map((c) => c.trim());
    if (theirs === 'Playwright MCP') continue;
    out.push({ section, theirs: names(theirs), ours: names(ours), status, line });
  }
  return out;
}

/** The zod schema at a dotted path of the config schema, or undefined. */
function configKeyExists(dotted: string): boolean {
  let node: unknown = configSchema;
  for (const key of dotted.split('.')) {
    let def = (node as { _zod?: { def?: { type?: string; innerType?: unknown; shape?: object } } })
      ._zod?.def;
    while (def?.type === 'optional' && def.innerType !== undefined) {
      node = def.innerType;
      def = (node as { _zod?: { def?: typeof def } })._zod?.def;
    }
    const shape = def?.shape as Record<string, unknown> | undefined;
    if (shape?.[key] === undefined) return false;
    node = shape[key];
  }
  return true;
}

const ourTools = new Set([
  ...toolContracts.map((c) => c.name as string),
  ...aliasesFor('executeautomation').map((a) => a.name),
]);

function exists(name: string): boolean {
  if (name.startsWith('browser_')) return ourTools.has(name);
  if (name.startsWith('--')) return new RegExp(`\\s${name}[\\s,]`).test(USAGE);
  return configKeyExists(name);
}

describe('docs/migration-playwright-mcp.md', () => {
  const table = rows();

  it('has rows in all three tables, each with a known status', () => {
    for (const section of ['Tools', 'Command-line flags', 'Config file keys']) {
      expect(table.filter((r) => r.section === section).length, section).toBeGreaterThan(10);
    }
    for (const row of table) expect(STATUSES, row.line).toContain(row.status);
  });

  it('names only things of ours that exist, for the rows that say they do', () => {
    const missing = table
      .filter((r) => r.status === 'same' || r.status === 'ours' || r.status === 'accepted')
      .flatMap((r) => (r.ours.length === 0 ? [`(none) in ${r.line}`] : r.ours))
      .filter((name) => name.startsWith('(none)') || !exists(name));
    expect(missing).toEqual([]);
  });

  it('"same" rows name the same thing on both sides', () => {
    for (const row of table.filter((r) => r.status === 'same')) {
      expect(row.ours, row.line).toEqual(row.theirs);
    }
  });

  it("lists every tool of Playwright MCP's default list and every flag of theirs", () => {
    const theirs = new Set(table.flatMap((r) => r.theirs));
    expect(THEIR_DEFAULT_TOOLS.filter((t) => !theirs.has(t))).toEqual([]);
    expect(THEIR_FLAGS.filter((f) => !theirs.has(f))).toEqual([]);
  });

  it('catches a row whose tool, flag or key is gone', () => {
    expect(exists('browser_navigate')).toBe(true);
    expect(exists('browser_teleport')).toBe(false);
    expect(exists('--proxy-server')).toBe(true);
    expect(exists('--proxy-serve')).toBe(false);
    expect(exists('http.allowedHosts')).toBe(true);
    expect(exists('http.allowedHost')).toBe(false);
  });
});
