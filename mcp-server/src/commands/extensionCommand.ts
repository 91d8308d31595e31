/**
 * `browser-agent-mcp extension`: prints the folder of the extension this package carries (the one
 * to pick in chrome://extensions → "Load unpacked"); `--zip <file>` writes it as a Chrome Web
 * Store upload instead (manifest checked, no source maps or test files) and reports its size.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { extensionDir } from '../daemon/launch/browserSpawn.js';
import { writeZip, type ZipEntry } from './zipWriter.js';

export const EXTENSION_USAGE = `Usage: browser-agent-mcp extension            print the unpacked extension's folder
       browser-agent-mcp extension --zip <file> write a Chrome Web Store zip of it
`;

/** Files a store upload must not carry: maps name source files; tests are not the product. */
const LEFT_OUT = [/\.map$/, /(^|\/)[^/]*\.(test|spec)\.[cm]?[jt]sx?$/, /(^|\/)\.[^/]*$/];

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

export function runExtensionCommand(argv: string[], io: Output, dir = extensionDir()): number {
  let zip: string | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: { zip: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.out(EXTENSION_USAGE);
      return 0;
    }
    zip = values.zip;
  } catch (err) {
    io.err(`browser-agent-mcp extension: ${(err as Error).message}\n\n${EXTENSION_USAGE}`);
    return 2;
  }
  const problem = manifestProblem(dir);
  if (problem !== undefined) {
    io.err(`browser-agent-mcp extension: ${problem}\n`);
    return 1;
  }
  if (zip === undefined) {
    io.out(`${dir}\n`);
    return 0;
  }
  const entries = collect(dir);
  const archive = writeZip(entries);
  const target = path.resolve(zip);
  writeFileSync(target, archive);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const version = String(manifest.version);
  io.out(
    `${target}: ${entries.length} files, ${formatSize(archive.length)} (extension ${version}, from ${dir})\n`,
  );
  return 0;
}

interface Manifest {
  manifest_version?: unknown;
  name?: unknown;
  version?: unknown;
}

/** Why the folder is not a loadable MV3 extension, or undefined when it is. */
export function manifestProblem(dir: string): string | undefined {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) {
    return `No extension at ${dir} (no manifest.json). In the workspace run pnpm build; an installed package carries it, so reinstall it.`;
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    return `${file} is not valid JSON (${(err as Error).message}). Rebuild the extension.`;
  }
  if (manifest.manifest_version !== 3) return `${file}: manifest_version is not 3.`;
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string')
    return `${file}: name or version is missing.`;
  if (!/^\d+(\.\d+){0,3}$/.test(manifest.version))
    return `${file}: version "${manifest.version}" is not 1-4 dot-separated numbers, which Chrome requires.`;
  return undefined;
}

function collect(dir: string): ZipEntry[] {
  const entries: ZipEntry[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full).split(path.sep).join('/');
    if (LEFT_OUT.some((re) => re.test(name))) continue;
    let data = readFileSync(full);
    // The pinned `key` keeps the unpacked extension's id stable; the Chrome Web Store refuses an
    // upload whose manifest carries one (it assigns the id itself), so the store copy has none.
    if (name === 'manifest.json') {
      const manifest = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      delete manifest['key'];
      data = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
    }
    // A map left out leaves its reference behind; drop it so DevTools does not look for it.
    if (name.endsWith('.js')) {
      data = Buffer.from(
        data.toString('utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'),
        'utf8',
      );
    }
    entries.push({ name, data });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
