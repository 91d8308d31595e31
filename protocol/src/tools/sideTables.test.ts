/**
 * Facts about a tool are fields of its contract, read once in the registry loop of each side
 * (docs/architecture.md, "Adding a tool"). This fails when a table keyed by tool names (a Set,
 * an array, a Record or a comparison with a tool-name literal) comes back anywhere else in
 * product code: such a table is forgotten silently when a tool is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where tool names may key things: the contracts, and the handler files of the same names. */
const ALLOWED_DIRS = ['protocol/src/tools', 'extension/src/background/tools'];

const SIDE_TABLE_PATTERNS: readonly [string, RegExp][] = [
  ['a list of tool names', /[[(]\s*(['"`])browser_\w+\1\s*,\s*(['"`])browser_\w+\2/],
  ['a key named after a tool', /^\s*(['"]?)browser_\w+\1\??\s*:/m],
  ['a comparison with a tool name', /[!=]==\s*(['"`])browser_\w+\1|(['"`])browser_\w+\2\s*[!=]==/],
  ['a lookup by tool name', /\.(has|includes|get)\(\s*(['"`])browser_\w+\2\s*\)/],
  ['a switch over tool names', /case\s+(['"`])browser_\w+\1\s*:/],
  ['a Record keyed by tool name', /Record<\s*ToolName\b/],
];

function productFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((file) => !file.split(path.sep).includes('testing'))
    .filter((file) => !ALLOWED_DIRS.some((allowed) => file.startsWith(allowed + path.sep)));
}

describe('no side tables of tool names', () => {
  const files = ['protocol/src', 'extension/src', 'mcp-server/src'].flatMap(productFiles);

  it('scans the product sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(SIDE_TABLE_PATTERNS)('none holds %s outside the contracts and handlers', (_, pattern) => {
    const offenders = files.filter((file) =>
      pattern.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(
      offenders,
      'make it a field of the tool contract (protocol/src/tools/contract.ts)',
    ).toEqual([]);
  });

  it('catches a table that comes back', () => {
    const sample = "const NAVIGATING = new Set(['browser_navigate', 'browser_reload']);";
    expect(SIDE_TABLE_PATTERNS.some(([, p]) => p.test(sample))).toBe(true);
  });
});
