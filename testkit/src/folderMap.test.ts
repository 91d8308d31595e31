/**
 * docs/architecture.md's folder map against the tree: one table, one row per folder of product
 * code, every row a folder on disk, and every import allowed by its folder's "May import" row
 * (type-only imports included). A failure names what to change.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  mapRows,
  mapTables,
  PRODUCT_ROOTS,
  ruleBreaks,
  type ImportEdge,
  type MapRow,
} from './folderMap.js';
import { resolveRelative, sources, specifiersOf } from './importGraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = 'docs/architecture.md';

/** The folder (from the root, ending with /) of a path. */
function folderOf(file: string): string {
  return `${path.relative(ROOT, path.dirname(file)).split(path.sep).join('/')}/`;
}

/** Folders of product code: those holding a source file that is not a test. */
function productFolders(): string[] {
  const folders = PRODUCT_ROOTS.flatMap((root) => sources(path.join(ROOT, root)).map(folderOf));
  return [...new Set(folders)].sort();
}

/** Every import of every product file that reaches a product folder. */
function productEdges(): ImportEdge[] {
  return PRODUCT_ROOTS.flatMap((root) =>
    sources(path.join(ROOT, root)).flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8')).flatMap((specifier): ImportEdge[] => {
        const rel = path.relative(ROOT, file).split(path.sep).join('/');
        if (specifier === '@browser-agent/protocol')
          return [{ file: rel, specifier, target: 'protocol/src/' }];
        const target = resolveRelative(file, specifier);
        return target === undefined ? [] : [{ file: rel, specifier, target: folderOf(target) }];
      }),
    ),
  );
}

function theMap(): MapRow[] {
  const tables = mapTables(readFileSync(path.join(ROOT, DOC), 'utf8'));
  expect(tables.length, `${DOC} holds the folder map as one table`).toBe(1);
  return mapRows(tables[0] ?? []);
}

describe('the folder map in docs/architecture.md', () => {
  it('is one table with one row for each folder of product code, each a folder on disk', () => {
    const rows = theMap();
    const problems: string[] = [];
    for (const folder of productFolders()) {
      const count = rows.filter((r) => r.folder === folder).length;
      if (count === 0)
        problems.push(
          `\`${folder}\` has no row: add one to the folder map in ${DOC} (what lives there, what it may import)`,
        );
      if (count > 1) problems.push(`\`${folder}\` has ${count} rows in the folder map: keep one`);
    }
    for (const row of rows) {
      const dir = path.join(ROOT, row.folder);
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        problems.push(
          `the row \`${row.folder}\` names no folder on disk: fix the path or remove it`,
        );
      for (const p of row.problems) problems.push(`the row \`${row.folder}\`: ${p}`);
      if (row.mayImport === 'anything') continue;
      for (const target of row.mayImport)
        if (!existsSync(path.join(ROOT, target)))
          problems.push(
            `the row \`${row.folder}\` may import \`${target}\`, which is no folder: fix the name`,
          );
    }
    expect(problems).toEqual([]);
  });

  it('allows every import the code makes', () => {
    const edges = productEdges();
    expect(edges.length).toBeGreaterThan(500);
    expect(ruleBreaks(theMap(), edges)).toEqual([]);
  });

  it('turns a "May import" row into a rule that names the file, the import and the row', () => {
    const table = [
      '| Folder | What lives there | May import |',
      '| --- | --- | --- |',
      '| `extension/src/background/recorders/` | Recorders | `background/common/`, `protocol/src/` (types) |',
      '| `extension/src/background/testing/` | Fakes | anything; only tests import it |',
      '| `mcp-server/src/daemon/` | The daemon | `daemon/link/`, `handlerContext` |',
    ];
    const rows = mapRows(table);
    expect(rows[0]?.mayImport).toEqual(['extension/src/background/common/', 'protocol/src/']);
    expect(rows[1]?.mayImport).toBe('anything');
    expect(rows[2]?.mayImport).toEqual(['mcp-server/src/daemon/link/']);
    expect(rows[2]?.problems.join()).toContain(
      '`handlerContext` in its "May import" is not a folder',
    );
    const edge = (file: string, specifier: string, target: string): ImportEdge => ({
      file,
      specifier,
      target,
    });
    const breaks = ruleBreaks(rows, [
      edge(
        'extension/src/background/recorders/dialogs.ts',
        '../common/text',
        'extension/src/background/common/',
      ),
      edge(
        'extension/src/background/recorders/network.ts',
        './dialogs',
        'extension/src/background/recorders/',
      ),
      edge(
        'extension/src/background/recorders/bodies.ts',
        '../approvals/gate',
        'extension/src/background/approvals/',
      ),
      edge(
        'extension/src/background/testing/fake.ts',
        '../tools/index',
        'extension/src/background/tools/',
      ),
      edge('mcp-server/src/daemon/daemon.ts', '../shared/logger.js', 'mcp-server/src/shared/'),
    ]);
    expect(breaks).toEqual([
      "extension/src/background/recorders/bodies.ts imports '../approvals/gate' (extension/src/background/approvals/), which the folder map row `extension/src/background/recorders/` does not allow: add `background/approvals/` to that row's \"May import\" in docs/architecture.md, or move the code to a folder that may.",
      "mcp-server/src/daemon/daemon.ts imports '../shared/logger.js' (mcp-server/src/shared/), which the folder map row `mcp-server/src/daemon/` does not allow: add `shared/` to that row's \"May import\" in docs/architecture.md, or move the code to a folder that may.",
    ]);
  });

  it('finds only tables with the map header, and each separately', () => {
    const text = [
      '| Folder | What lives there | May import |',
      '| --- | --- | --- |',
      '| `protocol/src/` | Frames | `protocol/src/tools/` |',
      '',
      '| Other | Table |',
      '| --- | --- |',
      '',
      '| Folder | What lives there | May import |',
      '| --- | --- | --- |',
    ].join('\n');
    expect(mapTables(text).map((t) => t.length)).toEqual([3, 2]);
  });
});
