// Writes the settings tables of docs/configuration.md and docs/migration-playwright-mcp.md from
// the entries in mcp-server/src/server/settings/options (pnpm docs:tools). A unit test,
// settings/settingsDocs.test.ts, fails when the files drift from the entries.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('..', import.meta.url));
// The entries are TypeScript of the server, which has no build of its own modules: rolldown (the
// server's bundler) bundles the docs module alone into a temporary file to import.
const requireFromServer = createRequire(path.join(root, 'mcp-server/package.json'));
const { build } = await import(pathToFileURL(requireFromServer.resolve('rolldown')).href);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'settings-docs-'));
try {
  const file = path.join(tmp, 'settingsDocs.mjs');
  await build({
    input: path.join(root, 'mcp-server/src/server/settings/settingsDocs.ts'),
    platform: 'node',
    logLevel: 'warn',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    output: { file, format: 'esm' },
    write: true,
  });
  const { DOC_REGIONS, renderRegions, withRegion } = await import(pathToFileURL(file).href);
  const bodies = renderRegions();
  for (const [doc, names] of Object.entries(DOC_REGIONS)) {
    const target = path.join(root, doc);
    let text = readFileSync(target, 'utf8');
    for (const name of names) text = withRegion(text, name, bodies[name]);
    const options = { ...(await prettier.resolveConfig(target)), filepath: target };
    writeFileSync(target, await prettier.format(text, options));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
