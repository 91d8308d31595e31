/**
 * `prepack`: copies the built extension (../extension/dist) into ./extension so the package
 * carries it: `browser-agent-mcp --launch` loads it from there and `browser-agent-mcp extension`
 * prints its folder. Source maps are left out
 * (they name files of this workspace), with the comments that point at them.
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const from = path.resolve(here, '..', 'extension', 'dist');
const to = path.join(here, 'extension');

// `postpack`: the copy is only for the tarball; in the workspace extension/dist is the one to load.
if (process.argv.includes('--remove')) {
  rmSync(to, { recursive: true, force: true });
  process.exit(0);
}
if (!existsSync(path.join(from, 'manifest.json'))) {
  // The maps are gone, so their references go too (DevTools would warn about each).
  for (const entry of readdirSync(to, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const stripped = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    if (stripped !== text) writeFileSync(file, stripped);
  }
  console.error(`copyExtension: no built extension at ${from}. Run pnpm build first.`);
  process.exit(1);
}
if (!existsSync(path.join(here, 'dist', 'cli.js'))) {
  console.error(`copyExtension: the server is not built (${here}/dist). Run pnpm build first.`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true, filter: (src) => !src.endsWith('.map') });
console.error(`copyExtension: ${from} -> ${to}`);
