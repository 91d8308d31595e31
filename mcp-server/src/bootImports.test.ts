/**
 * The first lines of the server and of the daemon load only what they need before the daemon and
 * its browser start (#26 item 3). The server decides its route and spawns the daemon with its
 * browser (browserSide.ts, browserHandover.ts) before the MCP SDK and the tools load; the daemon
 * adopts that browser (prelaunch.ts) before the daemon proper (the protocol's schemas, ws)
 * loads. An import that pulls the SDK into cli.ts's static graph, or the protocol into main.ts's,
 * would silently put ~50-90 ms back in front of the browser's start.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(HERE, '..', 'dist');

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
    const { files, bare } = closure(path.join(HERE, 'daemon', 'main.ts'), (from, spec) =>
      path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts')),
    );
    expect(bare.filter((b) => !b.startsWith('node:'))).toEqual([
      '@browser-agent/protocol/constants',
    ]);
    const names = files.map((f) => path.relative(HERE, f));
    expect(names).not.toContain(path.join('daemon', 'daemon.ts'));
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

describe("the server's entry", () => {
  const sdk = (b: string): boolean => b.startsWith('@modelcontextprotocol/sdk');

  it('imports, before it spawns the daemon, neither the MCP SDK nor the tools', () => {
    const { files, bare } = closure(path.join(HERE, 'cli.ts'), (from, spec) =>
      path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts')),
    );
    expect(bare.filter(sdk)).toEqual([]);
    const names = files.map((f) => path.relative(HERE, f));
    expect(names).toContain(path.join('server', 'session', 'browserSide.ts'));
    for (const heavy of ['call/mcpServer.ts', 'session/bridgeSession.ts'])
      expect(names).not.toContain(path.join('server', ...heavy.split('/')));
  });

  it.skipIf(!existsSync(path.join(DIST, 'cli.js')))(
    'is built so: its static chunks hold no MCP server and no stdio transport',
    () => {
      const { files, bare } = closure(path.join(DIST, 'cli.js'), (from, spec) =>
        path.resolve(path.dirname(from), spec),
      );
      expect(bare.filter(sdk)).toEqual([]);
      for (const f of files) {
        const text = readFileSync(f, 'utf8');
        expect(text, f).not.toMatch(/\bMcpServer = class\b|class McpServer\b/);
        expect(text, f).not.toMatch(
          /\bStdioServerTransport = class\b|class StdioServerTransport\b/,
        );
      }
    },
  );
});
