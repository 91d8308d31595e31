/**
 * Storage state files (browser_storage_state, browser_set_storage_state, `--storage-state`):
 * Playwright's storageState JSON, written to and read from the disk of the MCP server.
 *
 * - Saving: a relative name goes under the output directory (or, without one, the client's
 *   first root / the project); an absolute name must lie inside one of those. The file is
 *   created new (never replaces one) with mode 0600: it holds live session cookies. The agent
 *   is shown the file's path, never its content.
 * - Loading: the file must lie where uploads may come from (the client's roots, the project,
 *   `uploadDirs`) or in the output directory, and parse as a storage state.
 */
import { mkdir, open, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  BridgeError,
  ErrorCode,
  storageStateSchema,
  type StorageState,
} from '@browser-agent/protocol';
import type { ToolCaller } from '../response/toolResponse.js';
import { ToolResponse } from '../response/toolResponse.js';
import { checkUploadPaths } from './uploadRoots.js';

const MAX_STATE_BYTES = 20 * 1024 * 1024;
/** Opening a tab per origin of the file may take a while. */
const START_TIMEOUT_MS = 60_000;

const SAVE_HINT =
  "Give a relative file name (saved under the output directory, outputDir / --output-dir), or an absolute path inside the output directory or the client's roots.";

function inside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function timestampName(): string {
  return `storage-state-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
}

/** Where a state file named by the agent goes; throws with a hint when it may not go there. */
export async function stateFileTarget(
  filename: string | undefined,
  outputDir: string | undefined,
  roots: readonly string[],
): Promise<string> {
  const base = outputDir ?? roots.find((r) => path.isAbsolute(r));
  const name = filename ?? timestampName();
  if (!path.isAbsolute(name)) {
    if (base === undefined) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        'No directory to save the storage state in: no output directory is set and the client named no roots.',
        'Set outputDir (--output-dir), or give an absolute filename.',
      );
    }
    const file = path.resolve(base, name);
    if (!inside(base, file))
      throw new BridgeError(ErrorCode.INVALID_ARGS, `"${name}" leaves ${base}.`, SAVE_HINT);
    if (outputDir !== undefined) await mkdir(outputDir, { recursive: true, mode: 0o700 });
    return file;
  }
  const dir = await realpath(path.dirname(name)).catch(() => {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Refused to save the storage state to ${name}: its directory does not exist.`,
      SAVE_HINT,
    );
  });
  const allowed = [...(outputDir === undefined ? [] : [outputDir]), ...roots];
  const real = await Promise.all(allowed.map((d) => realpath(d).catch(() => d)));
  const file = path.join(dir, path.basename(name));
  if (!real.some((d) => inside(d, file))) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Refused to save the storage state to ${name}: it is outside the output directory and the client's roots.`,
      SAVE_HINT,
    );
  }
  return file;
}

/** Writes a new file, 0600; never through an existing file or link. */
export async function writeStateFile(file: string, json: string): Promise<void> {
  const handle = await open(file, 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Could not save the storage state to ${file}: ${err.code === 'EEXIST' ? 'a file of that name exists' : (err.code ?? err.message)}.`,
      'Give a new file name (or none, for a timestamped one).',
    );
  });
  try {
    await handle.writeFile(json);
  } finally {
    await handle.close();
  }
}

/** Reads and checks a storage state file (the caller has checked where it lies). */
export async function readStateFile(file: string): Promise<StorageState> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new BridgeError(
      ErrorCode.FILE_NOT_FOUND,
      `Could not read the storage state file ${file}: ${err.code ?? err.message}.`,
      "Give the path of a JSON file written by browser_storage_state or Playwright's storageState().",
    );
  });
  if (text.length > MAX_STATE_BYTES) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The storage state file ${file} is larger than ${MAX_STATE_BYTES} bytes.`,
      'Save a smaller state (fewer origins).',
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The storage state file ${file} is not JSON: ${(err as Error).message}.`,
      "Give a file written by browser_storage_state or Playwright's storageState().",
    );
  }
  const parsed = storageStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The storage state file ${file} is not a storage state: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}.`,
      'It needs { "cookies": [{ name, value, domain, path, ... }], "origins": [{ origin, localStorage: [{ name, value }] }] }.',
    );
  }
  return parsed.data;
}

/**
 * The file an agent names for browser_set_storage_state: relative names are read from the
 * output directory (or the first root), and the file must lie inside the output directory or
 * where uploads may come from.
 */
export async function stateFileSource(
  filename: string,
  outputDir: string | undefined,
  roots: readonly string[],
): Promise<string> {
  const base = outputDir ?? roots.find((r) => path.isAbsolute(r));
  const file =
    path.isAbsolute(filename) || base === undefined ? filename : path.resolve(base, filename);
  const allowed = [...(outputDir === undefined ? [] : [outputDir]), ...roots];
  const [checked] = await checkUploadPaths([file], allowed);
  return checked ?? file;
}

/**
 * `--storage-state <file>`: before the session's first call reaches the browser, the file's
 * cookies and localStorage are loaded into it (once; retried on the next call if it failed).
 */
export function storageStateAtStart(inner: ToolCaller, file: string | undefined): ToolCaller {
  if (file === undefined) return inner;
  let applied: Promise<void> | undefined;
  const apply = async (
    response: ToolResponse,
    options: Parameters<ToolCaller['call']>[4],
  ): Promise<void> => {
    const state = await readStateFile(file);
    const own = new ToolResponse();
    const result = await inner.call(
      'browser_set_storage_state',
      { filename: file, state },
      START_TIMEOUT_MS,
      own,
      options,
    );
    const text = result.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    response.addNote(`--storage-state: ${text}`);
  };
  return {
    async call(action, params, timeoutMs, response, options) {
      if (applied === undefined) {
        applied = apply(response, options);
        applied.catch(() => {
          applied = undefined;
        });
      }
      try {
        await applied;
      } catch (err) {
        const why = err instanceof BridgeError ? err.message : (err as Error).message;
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `Could not load the storage state file given with --storage-state: ${why}`,
          'Fix the file (or the storageState setting), or start without it; the call was not run.',
        );
      }
      return inner.call(action, params, timeoutMs, response, options);
    },
  };
}
