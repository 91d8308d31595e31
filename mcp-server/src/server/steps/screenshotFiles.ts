/**
 * Screenshots written to the output directory: timestamped names (never overwriting one
 * another), a size cap per file, and retention: the oldest are deleted first until the count
 * and total size are within their limits. Only files named by this module are ever deleted.
 */
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ScreenshotLimits } from '../settings/config.js';
import { writeOutputFile } from '../outputFiles/newFile.js';

/** `<stem>-2026-11-21T08-01-02-123Z[-n].<ext>`: what retention recognises as its own. */
const OWN_FILE = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?\.(png|jpe?g|webp)$/;

export function timestampedName(stem: string, ext: string, at = new Date()): string {
  const safe = stem.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'screenshot';
  return `${safe}-${at.toISOString().replace(/[:.]/g, '-')}.${ext}`;
}

export type SaveOutcome =
  { saved: true; file: string; deleted: number } | { saved: false; reason: string };

/** Writes `data` as a new timestamped file in `dir`, then trims the directory. */
export async function saveScreenshot(
  dir: string,
  stem: string,
  ext: string,
  data: Buffer,
  limits: ScreenshotLimits,
): Promise<SaveOutcome> {
  if (data.length > limits.maxFileBytes) {
    return {
      saved: false,
      reason: `${formatBytes(data.length)} is over the ${formatBytes(limits.maxFileBytes)} cap per file (screenshots.maxFileBytes)`,
    };
  }
  const name = timestampedName(stem, ext);
  const file = await writeNew(dir, name, data);
  const deleted = await trim(dir, limits, file);
  return { saved: true, file, deleted };
}

/** Exclusive create (newFile.ts's rules), so two screenshots in one millisecond get two files. */
async function writeNew(dir: string, name: string, data: Buffer): Promise<string> {
  return writeOutputFile(dir, name, data, true);
}

async function trim(dir: string, limits: ScreenshotLimits, keep: string): Promise<number> {
  const names = (await readdir(dir)).filter((n) => OWN_FILE.test(n));
  const files = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const info = await lstat(file).catch(() => undefined);
      return { file, name, size: info?.size ?? 0, mtimeMs: info?.mtimeMs ?? 0 };
    }),
  );
  // Oldest first; the name's timestamp breaks ties within one mtime tick.
  files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
  let count = files.length;
  let total = files.reduce((sum, f) => sum + f.size, 0);
  let deleted = 0;
  for (const f of files) {
    if (count <= limits.maxFiles && total <= limits.maxTotalBytes) break;
    if (f.file === keep) continue;
    await unlink(f.file).catch(() => undefined);
    count -= 1;
    total -= f.size;
    deleted += 1;
  }
  return deleted;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
