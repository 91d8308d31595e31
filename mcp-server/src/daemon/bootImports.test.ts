/**
 * The daemon's first lines load only light modules: it starts the browser ahead (prelaunch.ts)
 * before the daemon proper (the protocol's schemas, ws) loads, so the two overlap (#26 item 3).
 * An import that pulls the protocol or the daemon into main.ts's static graph would silently
 * put ~90 ms back in front of the browser's start.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(HERE, '..', '..', 'dist');

/** Static, value imports (not `import type`, not `import()`) of a file's text. */
function staticImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+['"]([^'"]+)['"]/gms))
    found.push(m[1] ?? '');
  for (const m of text.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) found.push(m[1] ?? '');
  return found;
}

function closure(
  entry: string,
  resolveLocal: (from: string, spec: string) => string,
): {
  files: string[];
  bare: string[];
} {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(resolveLocal(file, spec));
      else bare.add(spec);
    }
  };
  visit(entry);
  return { files: [...files], bare: [...bare] };
}

describe("the daemon's entry", () => {
  it('imports, before its start lock, nothing but node, light modules and the constants', () => {
    const { files, bare } = closure(path.join(HERE, 'main.ts'), (from, spec) =>
      path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts')),
    );
    expect(bare.filter((b) => !b.startsWith('node:'))).toEqual([
      '@browser-agent/protocol/constants',
    ]);
    const names = files.map((f) => path.relative(HERE, f));
    expect(names).not.toContain('daemon.ts');
    expect(names.length).toBeLessThan(20);
  });

  it.skipIf(!existsSync(path.join(DIST, 'daemon', 'main.js')))(
    'is built so: its static chunks hold no schemas and stay small',
    () => {
      const { files, bare } = closure(path.join(DIST, 'daemon', 'main.js'), (from, spec) =>
        path.resolve(path.dirname(from), spec),
      );
      expect(bare.filter((b) => !b.startsWith('node:'))).toEqual([]);
      const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
      expect(bytes).toBeLessThan(100_000);
      for (const f of files) expect(readFileSync(f, 'utf8')).not.toMatch(/\$ZodObject/);
    },
  );
});
