/**
 * Storage state files (browser_storage_state, browser_set_storage_state, `--storage-state`):
 * Playwright's storageState JSON, written to and read from the disk of the MCP server.
 *
 * - Saving: into the output directory only (the private one when none is set), as a new 0600
 *   file: it holds live session cookies. The agent is shown the file's path, never its content.
 * - Loading: the file must lie where uploads may come from (the client's roots, the project,
 *   `uploadDirs`) or in the output directory, and parse as a storage state.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
import { defaultOutputDir, fileStamp, writeOutputFile } from '../outputFiles/newFile.js';

const MAX_STATE_BYTES = 20 * 1024 * 1024;
/** Opening a tab per origin of the file may take a while. */
const START_TIMEOUT_MS = 60_000;

/** The name a state is saved under when the agent gives none. */
export function stateFileName(): string {
  return `storage-state-${fileStamp()}.json`;
}

/**
 * Saves the state as a new 0600 file in the output directory (the rules of every file the
 * server writes: outputFiles/newFile.ts) and returns its path.
 */
export async function writeStateFile(
  outputDir: string | undefined,
  filename: string | undefined,
  json: string,
): Promise<string> {
  return writeOutputFile(outputDir, filename ?? stateFileName(), json, filename === undefined);
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
  // Without a configured output directory, states are saved in the private one: a relative
  // name is found there first, then in the first root as before.
  const out = outputDir ?? defaultOutputDir();
  const saved = outputDir !== undefined || existsSync(path.resolve(out, filename));
  const base = saved ? out : roots.find((r) => path.isAbsolute(r));
  const file =
    path.isAbsolute(filename) || base === undefined ? filename : path.resolve(base, filename);
  const allowed = [out, ...roots];
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
