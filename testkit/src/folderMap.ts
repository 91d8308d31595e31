/**
 * The folder map of docs/architecture.md as rules, the way Playwright's DEPS.list files are:
 * one row per folder of product code, and its "May import" cell lists the folders (written
 * relative to the package's `src/`, or from the repository root for another package, e.g.
 * `protocol/src/`) that files directly in that folder may import from. A folder may always
 * import from itself; `anything` lifts the rule (test helpers). Prose outside backticks is for
 * people; every backticked name in the cell is a folder and ends with `/`.
 */
import path from 'node:path';

/** The packages whose `src/` is product code; each of their folders needs a row. */
export const PRODUCT_ROOTS = ['protocol/src/', 'mcp-server/src/', 'extension/src/'] as const;

export const MAP_HEADER = ['Folder', 'What lives there', 'May import'] as const;

export interface MapRow {
  /** From the repository root, ending with `/`. */
  folder: string;
  /** Folders from the repository root, or 'anything'. */
  mayImport: string[] | 'anything';
  /** The names as written, for messages. */
  written: string[];
  problems: string[];
}

/** One import of a product file, resolved to the folder it reaches. */
export interface ImportEdge {
  /** From the repository root. */
  file: string;
  specifier: string;
  /** The folder imported from, from the repository root, ending with `/`. */
  target: string;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

function ticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

export function productRootOf(folder: string): string | undefined {
  return PRODUCT_ROOTS.find((root) => folder.startsWith(root));
}

/** Every table in the markdown whose header is the folder map's, as its lines. */
export function mapTables(markdown: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (!line.trim().startsWith('|')) {
      current = undefined;
      continue;
    }
    if (current) current.push(line);
    else if (cells(line).join('|') === MAP_HEADER.join('|')) tables.push((current = [line]));
  }
  return tables;
}

/** The rows of one map table (header and divider skipped). */
export function mapRows(table: readonly string[]): MapRow[] {
  return table.slice(2).map((line) => {
    const [folderCell = '', , importCell = ''] = cells(line);
    const folder = ticked(folderCell)[0] ?? folderCell;
    const problems: string[] = [];
    if (!folder.endsWith('/'))
      problems.push(`its folder \`${folder}\` should be written with a trailing /`);
    const written = ticked(importCell);
    if (/\banything\b/.test(importCell.replace(/`[^`]*`/g, '')))
      return { folder, mayImport: 'anything', written, problems };
    const root = productRootOf(folder) ?? '';
    const mayImport = written.flatMap((name) => {
      if (!name.endsWith('/')) {
        problems.push(
          `\`${name}\` in its "May import" is not a folder: name folders with a trailing /, and write other words outside backticks`,
        );
        return [];
      }
      return [productRootOf(name) === undefined ? `${root}${name}` : name];
    });
    return { folder, mayImport, written, problems };
  });
}

/** How a row names a folder in its "May import" cell: relative to its own package's src/. */
export function nameFor(row: MapRow, target: string): string {
  const root = productRootOf(row.folder);
  return root !== undefined && target.startsWith(root) ? target.slice(root.length) : target;
}

/**
 * Each import from a folder its importer's row does not list, as a message naming the file,
 * the import and the row to change.
 */
export function ruleBreaks(rows: readonly MapRow[], edges: readonly ImportEdge[]): string[] {
  const byFolder = new Map(rows.map((r) => [r.folder, r]));
  return edges.flatMap((edge) => {
    const folder = `${path.posix.dirname(edge.file)}/`;
    if (edge.target === folder) return [];
    const row = byFolder.get(folder);
    if (row === undefined || row.mayImport === 'anything') return [];
    if (row.mayImport.includes(edge.target)) return [];
    return [
      `${edge.file} imports '${edge.specifier}' (${edge.target}), which the folder map row \`${row.folder}\` does not allow: add \`${nameFor(row, edge.target)}\` to that row's "May import" in docs/architecture.md, or move the code to a folder that may.`,
    ];
  });
}
