import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/**
 * This package's directory (the one holding its package.json), found from the running file.
 * The build bundles many modules into one file, so a path relative to a module's own location
 * would point elsewhere once built; this holds from src/ (tests) and from any file in dist/.
 */
export function packageDir(): string {
  if (found !== undefined) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (found = dir);
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}.`);
  }
}
