/**
 * Checks a project directory before anything is created from it: the browser profile goes inside
 * it and a per-project daemon is keyed by it, so a typo must fail loudly, not make a new tree.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Past this, Windows tools without long-path support fail on files inside the profile. */
const WINDOWS_MAX_PATH = 260;

export type ProjectDirCheck =
  { ok: true; dir: string; warnings: string[] } | { ok: false; message: string; hint: string };

/**
 * `platform` only decides the Windows path-length warning (so a test can ask for it).
 * Absolute, no `..` segment, an existing directory this user can write to. The answer is the
 * real path (symlinks resolved), so two spellings of one project share one browser.
 */
export function checkProjectDir(
  raw: string,
  platform: NodeJS.Platform = process.platform,
): ProjectDirCheck {
  const hint = 'Give the absolute path of an existing project directory you can write to.';
  if (raw.trim() === '' || raw.includes('\0')) {
    return { ok: false, message: 'The project path is empty or contains a NUL byte.', hint };
  }
  if (!path.isAbsolute(raw)) {
    return {
      ok: false,
      message: `The project path must be absolute, got "${raw}".`,
      hint: 'Give the full path, e.g. /home/me/my-app (the server may run in another directory).',
    };
  }
  if (raw.split(/[\\/]/).includes('..')) {
    return {
      ok: false,
      message: `The project path must not contain "..": "${raw}".`,
      hint: 'Give the directory itself, without ".." segments.',
    };
  }
  const normalized = path.normalize(raw);
  let isDir: boolean;
  try {
    isDir = statSync(normalized).isDirectory();
  } catch {
    return { ok: false, message: `The project directory does not exist: ${normalized}`, hint };
  }
  if (!isDir) {
    return { ok: false, message: `The project path is not a directory: ${normalized}`, hint };
  }
  try {
    accessSync(normalized, constants.W_OK);
  } catch {
    return {
      ok: false,
      message: `The project directory is not writable: ${normalized}`,
      hint: 'The browser profile is kept inside the project; pick a directory you can write to, or start the server with --isolated.',
    };
  }
  const dir = realpathSync.native(normalized);
  const warnings =
    platform === 'win32' && dir.length > WINDOWS_MAX_PATH
      ? [
          `The project path is ${dir.length} characters long, past Windows' ${WINDOWS_MAX_PATH}-character limit; enable long paths or the browser profile may fail to save.`,
        ]
      : [];
  return { ok: true, dir, warnings };
}
