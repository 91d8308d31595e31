/**
 * The import graph of a package's sources, for the tests that keep its rooms honest: no import
 * circle in extension, mcp-server and protocol (each package's `importGraph.test.ts`), and the
 * folder map's "may import" rows (`folderMap.test.ts`). Read from the text, type-only imports
 * included: a circle through types still says some state is declared in the wrong room.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every product source under dir: `.ts` files that are not tests. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * Every module specifier a file names: static, type-only, re-export, side-effect or dynamic.
 * Relative ones and package names alike, as written.
 */
export function specifiersOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] ?? '');
}

/**
 * The source file a relative specifier names, with or without `.js` (NodeNext) or no extension
 * (bundler), or a folder's `index.ts`; undefined for a package name or nothing found.
 */
export function resolveRelative(file: string, spec: string): string | undefined {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(file), spec.replace(/\.(js|ts)$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
}

/** Every relative import of a file, as a file path. */
export function importsOf(file: string, text: string): string[] {
  return specifiersOf(text).flatMap((spec) => resolveRelative(file, spec) ?? []);
}

/** file → the files it imports, for every product source under dir. */
export function importGraph(dir: string): Map<string, string[]> {
  return new Map(sources(dir).map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));
}

/** Each circle found, as the files along it with the first repeated at the end. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file);
    if (at !== -1) {
      found.push([...trail.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

/** The circles of the package under dir, each named relative to dir (`a.ts → b.ts → a.ts`). */
export function namedCircles(dir: string): string[] {
  return circles(importGraph(dir)).map((c) => c.map((f) => path.relative(dir, f)).join(' → '));
}
