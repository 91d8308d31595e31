/**
 * Files the tools write (a PDF, a response body, a console or network listing, the console
 * logs): always new files, in the output directory unless the agent gave an absolute path
 * inside it. Nothing here replaces a file, follows a planted link or creates a directory other
 * than the output directory itself.
 */
import { mkdtemp, mkdir, open, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';

const HINT =
  'Give a new file name: a relative one is saved under the output directory (--output-dir), an absolute one must be inside it.';

let tempDir: Promise<string> | undefined;

/**
 * The configured output directory (made on first use), else one private temporary directory
 * for this process, so a PDF or a response body can be saved with no configuration.
 */
export async function outputDirOf(outputDir: string | undefined): Promise<string> {
  if (outputDir !== undefined) {
    await mkdir(outputDir, { recursive: true, mode: 0o700 });
    return outputDir;
  }
  tempDir ??= mkdtemp(path.join(os.tmpdir(), 'browser-agent-output-'));
  return tempDir;
}

/** Safe in a file name on every platform: 2026-11-24T01-29-04-123Z. */
export function fileStamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

function refuse(file: string, why: string): never {
  throw new BridgeError(ErrorCode.INVALID_ARGS, `Refused to save to ${file}: ${why}.`, HINT);
}

/**
 * Where a `filename` argument (or, without one, `<prefix>-<time>.<ext>`) is saved: checked
 * before the browser is asked, so a refused name costs nothing.
 */
export async function resolveNewFile(
  outputDir: string | undefined,
  filename: string | undefined,
  prefix: string,
  ext: string,
): Promise<string> {
  const dir = await outputDirOf(outputDir);
  const realDir = await realpath(dir);
  if (filename === undefined) return path.join(realDir, `${prefix}-${fileStamp()}.${ext}`);
  if (filename.trim() === '' || filename.includes('\0')) refuse(JSON.stringify(filename), 'empty');
  const file = path.isAbsolute(filename) ? filename : path.join(realDir, filename);
  const parent = (await realpath(path.dirname(file)).catch(() => undefined)) ?? undefined;
  if (parent === undefined) refuse(file, 'its directory does not exist');
  const rel = path.relative(realDir, path.join(parent, path.basename(file)));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    refuse(file, `it is outside the output directory ${dir}`);
  return path.join(parent, path.basename(file));
}

/**
 * Writes a new file (exclusive create, owner-only). A generated name that is taken gets a
 * counter; a name the agent gave is refused instead of replacing what is there.
 */
export async function writeOutputFile(
  file: string,
  data: string | Uint8Array,
  generated: boolean,
): Promise<string> {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 0; n < 100; n += 1) {
    const candidate = n === 0 ? file : `${stem}-${n}${ext}`;
    const handle = await open(candidate, 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST' && generated) return undefined;
      if (err.code === 'EEXIST') refuse(candidate, 'a file of that name exists');
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `Could not save to ${candidate}: ${err.code ?? err.message}.`,
        HINT,
      );
    });
    if (handle === undefined) continue;
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    return candidate;
  }
  return refuse(file, 'too many files of that name');
}

/** How a saved file is named to the agent: relative to the working directory when inside it. */
export function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}
