/**
 * browser_snapshot `filename`: the snapshot is written to a new Markdown file instead of into
 * the agent's context, and the result says where. A relative name lands in the output
 * directory; an absolute one must be a new file in an existing directory (inside the output
 * directory when one is set). A file is never replaced: a taken relative name gets `-1`, `-2`, …
 * and a taken absolute name is refused, so a page that talks the agent into "save the snapshot
 * to ~/.bashrc" gets nothing.
 */
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';

const HINT =
  'Give a relative file name (saved in the output directory, outputDir) or a new file in an existing directory inside it.';

function refuse(file: string, why: string): never {
  throw new BridgeError(
    ErrorCode.INVALID_ARGS,
    `Refused to save the snapshot to ${file}: ${why}.`,
    HINT,
  );
}

/** Where the snapshot goes: checked before the browser is asked, so a bad name costs nothing. */
export async function snapshotTarget(file: string, outputDir: string | undefined): Promise<string> {
  if (!path.isAbsolute(file)) {
    if (outputDir === undefined)
      refuse(file, 'a relative name needs an output directory (outputDir), and none is set');
    const name = path.basename(file);
    if (name === '' || name.startsWith('.')) refuse(file, 'give a plain file name');
    await mkdir(outputDir, { recursive: true, mode: 0o700 });
    return path.join(outputDir, /\.(md|markdown|txt|ya?ml)$/i.test(name) ? name : `${name}.md`);
  }
  if (outputDir !== undefined) await mkdir(outputDir, { recursive: true, mode: 0o700 });
  const dir =
    (await realpath(path.dirname(file)).catch(() => undefined)) ??
    refuse(file, 'its directory does not exist');
  if (outputDir !== undefined) {
    const out = await realpath(outputDir).catch(() => outputDir);
    const rel = path.relative(out, path.join(dir, path.basename(file)));
    if (rel.startsWith('..') || path.isAbsolute(rel))
      refuse(file, `it is outside the output directory ${outputDir}`);
  }
  const exists = await lstat(file).then(
    () => true,
    () => false,
  );
  if (exists) refuse(file, 'a file of that name exists');
  return file;
}

/** Exclusive create; a relative name that is taken gets a numbered sibling instead. */
export async function writeSnapshot(
  file: string,
  text: string,
  numbered: boolean,
): Promise<string> {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 0; ; n += 1) {
    const candidate = n === 0 ? file : `${stem}-${n}${ext}`;
    try {
      const handle = await open(candidate, 'wx', 0o600);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return candidate;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || !numbered || n > 1000) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `Could not save the snapshot to ${candidate}: ${code ?? String(err)}.`,
          HINT,
        );
      }
    }
  }
}
