/**
 * The extension's import graph has no circle, type-only imports included: a circle says some
 * state is declared in the wrong room (docs/architecture.md, folder map). The protocol package
 * has its own check (protocol/src/importGraph.test.ts on the frames branch).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** Every relative import of a file (static, type-only, re-export or dynamic), as a file path. */
export function importsOf(file: string, text: string): string[] {
  const specs = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)];
  return specs.flatMap((m) => {
    const base = path.resolve(path.dirname(file), (m[1] ?? '').replace(/\.js$/, ''));
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
    return found === undefined ? [] : [found];
  });
}

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

describe('the extension', () => {
  it('has no import circle', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]));
    const named = circles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' → '));
    expect(named).toEqual([]);
  });

  it('sees a type-only circle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    const text = "import type { X } from './tabStates';";
    expect(importsOf(path.join(SRC, 'background/handlerContext.ts'), text)).toEqual([
      path.join(SRC, 'background/tabStates.ts'),
    ]);
  });
});
