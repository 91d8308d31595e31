/**
 * Every file the server writes (snapshots, screenshots, PDFs, response bodies, listings, storage
 * state, console and session logs) is made here, inside ONE output directory: the configured
 * one, else a private `output/` under the state directory. The rules, against a page that talks
 * the agent into a name and another OS user who shares a directory:
 *
 * - the directory is a real directory of this user that nobody else can write (privateDir.ts);
 * - a name is relative to it (an absolute one must lie inside it); no component may start with
 *   a dot (`.bashrc`, `.ssh/`, `..`), and no directory is created;
 * - every directory on the way is checked with lstat (no link at any component), the file is
 *   created new (O_EXCL) with mode 0600 and O_NOFOLLOW, and after the open its real path must
 *   still be where it was meant to be, so a link swapped in during the checks is caught;
 * - logs are appended through the handle that created them, never reopened by name.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import { ensurePrivateDir } from '../../shared/privateDir.js';
import { ensureStateDir, statePaths } from '../../shared/paths.js';

const HINT =
  'Give a new plain file name (no leading dot, no ".."): it is saved in the output directory; an absolute name must be inside it.';
const DIR_HINT =
  'Set --output-dir (outputDir) to a directory of your own that only you can write (mkdir -m 700), or leave it unset for a private one under the state directory.';
const NEW_FILE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The private output directory used when none is configured. */
export function defaultOutputDir(): string {
  return path.join(statePaths().dir, 'output');
}

/**
 * The output directory's real path, made 0700 on first use and checked on every use: a
 * directory that is a link, belongs to someone else or that others can write is refused.
 */
export async function outputDirOf(outputDir: string | undefined): Promise<string> {
  let dir = outputDir;
  if (dir === undefined) {
    try {
      ensureStateDir(statePaths().dir);
    } catch (err) {
      throw new BridgeError(ErrorCode.INVALID_ARGS, (err as Error).message, DIR_HINT);
    }
    dir = defaultOutputDir();
  }
  const problem = ensurePrivateDir(dir);
  if (problem !== undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Refused to use the output directory: ${problem}.`,
      DIR_HINT,
    );
  }
  return realpath(dir);
}

/** Safe in a file name on every platform: 2026-11-24T01-29-04-123Z. */
export function fileStamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

function refuse(file: string, why: string): never {
  throw new BridgeError(ErrorCode.INVALID_ARGS, `Refused to save to ${file}: ${why}.`, HINT);
}

/**
 * The components of `name` under `dir` (the real output directory; `given` is the configured
 * spelling of it, which an absolute name may use too). Refuses what could leave the directory
 * or make a hidden file.
 */
export function nameParts(dir: string, name: string, given?: string): string[] {
  const shown = JSON.stringify(name);
  if (name.trim() === '' || name.includes('\0')) refuse(shown, 'the name is empty');
  let rel = name;
  if (path.isAbsolute(name)) {
    const inside = [dir, given]
      .filter((d): d is string => d !== undefined)
      .map((d) => path.relative(d, path.normalize(name)))
      .find((r) => r !== '' && !r.startsWith('..') && !path.isAbsolute(r));
    if (inside === undefined) refuse(shown, `it is outside the output directory ${dir}`);
    rel = inside;
  }
  const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) refuse(shown, `it goes outside the output directory ${dir} ("..")`);
  const hidden = parts.find((p) => p.startsWith('.'));
  if (hidden !== undefined) {
    refuse(shown, `"${hidden}" starts with a dot (a hidden file a shell or tool may run)`);
  }
  if (parts.length === 0) refuse(shown, 'the name is empty');
  return parts;
}

/** Each directory between `dir` and the file must exist and be a real directory, not a link. */
async function checkDirs(dir: string, parts: readonly string[], shown: string): Promise<string> {
  let at = dir;
  for (const part of parts.slice(0, -1)) {
    at = path.join(at, part);
    const st = await lstat(at).catch(() => undefined);
    if (st === undefined) refuse(shown, `its directory ${at} does not exist (none is created)`);
    if (st.isSymbolicLink()) refuse(shown, `${at} is a symbolic link`);
    if (!st.isDirectory()) refuse(shown, `${at} is not a directory`);
  }
  return path.join(at, parts[parts.length - 1] ?? '');
}

/**
 * Creates `file` new (0600, never through a link) and checks, through the open handle, that
 * it is the file at that real path: a directory swapped for a link between the checks and the
 * open would have put it elsewhere, and then it is removed again and refused.
 */
async function createExclusive(file: string): Promise<FileHandle | undefined> {
  const handle = await open(file, NEW_FILE_FLAGS, 0o600).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') return undefined;
    if (err.code === 'ELOOP') refuse(file, 'it is a symbolic link');
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Could not save to ${file}: ${err.code ?? err.message}.`,
      HINT,
    );
  });
  if (handle === undefined) return undefined;
  const [st, real] = await Promise.all([handle.stat(), realpath(file).catch(() => undefined)]);
  const there = real === undefined ? undefined : await lstat(real).catch(() => undefined);
  if (real !== file || there?.ino !== st.ino || there.dev !== st.dev) {
    await handle.close();
    if (real !== undefined && there?.ino === st.ino) await unlink(real).catch(() => undefined);
    refuse(file, 'a directory on its way was replaced by a link while saving');
  }
  return handle;
}

export interface NewFile {
  /** Its real path. */
  file: string;
  /** Open for writing; the caller closes it. */
  handle: FileHandle;
}

/**
 * Creates a new file `name` in the output directory. A generated name that is taken gets a
 * counter (`-1`, `-2`, …); a name the agent gave is refused instead of replacing what is there,
 * unless `numbered` asks for the counter too.
 */
export async function createOutputFile(
  outputDir: string | undefined,
  name: string,
  numbered: boolean,
): Promise<NewFile> {
  const dir = await outputDirOf(outputDir);
  const parts = nameParts(dir, name, outputDir);
  const file = await checkDirs(dir, parts, JSON.stringify(name));
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 0; n < 1000; n += 1) {
    const candidate = n === 0 ? file : `${stem}-${n}${ext}`;
    const handle = await createExclusive(candidate);
    if (handle !== undefined) return { file: candidate, handle };
    if (!numbered) refuse(candidate, 'a file of that name exists');
  }
  return refuse(file, 'too many files of that name');
}

/** Writes `data` to a new file (see createOutputFile) and returns its real path. */
export async function writeOutputFile(
  outputDir: string | undefined,
  name: string,
  data: string | Uint8Array,
  numbered: boolean,
): Promise<string> {
  const { file, handle } = await createOutputFile(outputDir, name, numbered);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * Checks a `filename` argument before the browser is asked, so a refused name costs nothing:
 * returns where it would be saved (the write checks again).
 */
export async function checkOutputName(
  outputDir: string | undefined,
  name: string,
): Promise<string> {
  const dir = await outputDirOf(outputDir);
  return checkDirs(dir, nameParts(dir, name, outputDir), JSON.stringify(name));
}

/** How a saved file is named to the agent: relative to the working directory when inside it. */
export function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}
