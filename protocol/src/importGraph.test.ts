import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import of a file, type-only ones included: they close a circle just the same. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
    resolve(dirname(file), `${m[1] ?? ''}.ts`),
  );
}

describe('the protocol package', () => {
  it('has no import circle', () => {
    const files = sources(SRC);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]): void => {
      const at = path.indexOf(file);
      if (at !== -1) {
        circles.push([...path.slice(at), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
