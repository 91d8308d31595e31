/**
 * The build identity (issue #26.5): one short hash over the sources that make the bridge and the
 * extension, computed when either is built and baked into both (rolldown and vite `define`). Two
 * builds of the same tree agree; a server, daemon or extension built from another tree does not,
 * even when the version string is the same. Sources rather than the built files, so the server's
 * bundle and the extension's, built separately, carry the same identity.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['protocol/src', 'mcp-server/src', 'extension/src'];
const SOURCE_FILES = [
  'mcp-server/package.json',
  'extension/package.json',
  'extension/manifest.config.ts',
  'extension/vite.config.ts',
];

function filesUnder(root, dir) {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  return entries.flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(root, rel);
    // Tests are not part of what runs.
    return /\.test\.tsx?$/.test(e.name) ? [] : [rel];
  });
}

/** 12 hex digits: the workspace at `root`'s sources, hashed in a stable order. */
export function buildIdentity(root) {
  const files = [...SOURCE_DIRS.flatMap((d) => filesUnder(root, d)), ...SOURCE_FILES].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}
