/**
 * Steps a few tools need on the MCP server's side of the bridge, where the file system and a
 * DOM library are: checking upload files exist before the browser is asked, saving a
 * screenshot, turning page HTML into Markdown. A contract names its step (`serverStep`); most
 * tools have none.
 */
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  BridgeError,
  ErrorCode,
  type ConsoleLevel,
  type ServerStepKind,
  type ToolContract,
} from '@browser-agent/protocol';
import { resolveNewFile, shownPath, writeOutputFile } from '../outputFiles/newFile.js';
import type { ScreenshotLimits } from '../settings/config.js';
import { saveScreenshot } from './screenshotFiles.js';
import { checkUploadPaths } from './uploadRoots.js';
import {
  readStateFile,
  stateFileSource,
  stateFileTarget,
  writeStateFile,
} from './storageStateFiles.js';
import { snapshotTarget, writeSnapshot } from './snapshotFiles.js';
import type { ToolResponse } from '../response/toolResponse.js';

/** The settings the steps read (config.ts resolves them). */
export interface StepSettings {
  /** Absolute; every screenshot is saved here when set. */
  outputDir?: string | undefined;
  screenshots?: ScreenshotLimits;
  /** Console entries at or above this level are reported in results (default info). */
  consoleLevel?: ConsoleLevel;
  /** The directories uploads may come from: the client's roots, the project, `uploadDirs`. */
  uploadRoots?: () => Promise<readonly string[]>;
  /** The client's first file root (MCP roots), where a bare screenshot filename goes. */
  clientRoot?: () => Promise<string | undefined>;
}

interface ServerStep {
  /** Runs before the call is forwarded; throws to refuse it. */
  before?: (args: Record<string, unknown>, settings: StepSettings) => Promise<void>;
  /** Adds to the call's response once the browser answered. */
  after?: (
    response: ToolResponse,
    args: Record<string, unknown>,
    settings: StepSettings,
  ) => Promise<void>;
}

const UNLIMITED: ScreenshotLimits = {
  maxFileBytes: Number.MAX_SAFE_INTEGER,
  maxFiles: Number.MAX_SAFE_INTEGER,
  maxTotalBytes: Number.MAX_SAFE_INTEGER,
};

function requireAbsolute(file: string, what: string): void {
  if (!path.isAbsolute(file)) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `${what} must be an absolute path, got "${file}".`,
      'Give the full path, e.g. /home/me/report.pdf.',
    );
  }
}

const fileUpload: ServerStep = {
  async before(args, settings) {
    const paths = Array.isArray(args['paths'])
      ? args['paths'].filter((p): p is string => typeof p === 'string')
      : [];
    if (paths.length === 0) return;
    const roots = (await settings.uploadRoots?.()) ?? [];
    // The browser reads the checked, resolved paths, not the ones the agent wrote.
    args['paths'] = await checkUploadPaths(paths, roots, await settings.clientRoot?.());
  },
};

const SCREENSHOT_FILE_HINT =
  'Give a new file name in an existing directory (inside the output directory when one is set), or a relative filename to save under the output directory (outputDir).';

/**
 * An absolute screenshot `filename` may name only a new file in an existing directory, inside
 * the output directory when one is set: a call never creates directories or replaces a file
 * (a page that talks the agent into "save the screenshot to ~/.bashrc" gets nothing).
 */
async function checkScreenshotTarget(file: string, outputDir: string | undefined): Promise<void> {
  function refuse(why: string): never {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Refused to save the screenshot to ${file}: ${why}.`,
      SCREENSHOT_FILE_HINT,
    );
  }
  // The configured output directory is the user's choice: it is made on first use, as saving
  // under it always did. No other directory is ever created.
  if (outputDir !== undefined) await mkdir(outputDir, { recursive: true, mode: 0o700 });
  const dir =
    (await realpath(path.dirname(file)).catch(() => undefined)) ??
    refuse('its directory does not exist');
  if (outputDir !== undefined) {
    const out = await realpath(outputDir).catch(() => outputDir);
    const rel = path.relative(out, path.join(dir, path.basename(file)));
    if (rel.startsWith('..') || path.isAbsolute(rel))
      refuse(`it is outside the output directory ${outputDir}`);
  }
  const exists = await lstat(file).then(
    () => true,
    () => false,
  );
  if (exists) refuse('a file of that name exists');
}

/** Exclusive create: an existing file (or a link planted since the check) is never written through. */
async function writeNewFile(file: string, data: Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Could not save the screenshot to ${file}: ${err.code ?? err.message}.`,
      SCREENSHOT_FILE_HINT,
    );
  });
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/**
 * An absolute `filename` is written as given, as a new file. With an output directory, every screenshot is
 * also kept there under a timestamped name (a relative `filename` names its stem), subject to
 * the size cap and the retention limits.
 */
const screenshot: ServerStep = {
  async before(args, settings) {
    const file = args['filename'];
    if (typeof file !== 'string') return;
    if (settings.outputDir === undefined && !path.isAbsolute(file)) {
      // A bare name ("shot.png") goes to the client's root, as Playwright MCP users expect.
      const root = file === path.basename(file) ? await settings.clientRoot?.() : undefined;
      if (root !== undefined) args['filename'] = path.join(root, file);
      else requireAbsolute(file, 'filename (without an output directory or an MCP root)');
    }
    const target = args['filename'];
    if (typeof target === 'string' && path.isAbsolute(target)) {
      await checkScreenshotTarget(target, settings.outputDir);
    }
  },
  async after(response, args, settings) {
    const file = args['filename'];
    const image = response.parts.find((part) => part.type === 'image');
    if (image === undefined) return;
    const data = Buffer.from(image.data, 'base64');
    const notes: string[] = [];
    if (typeof file === 'string' && path.isAbsolute(file)) {
      await writeNewFile(file, data);
      notes.push(`Saved to ${file}`);
    }
    if (settings.outputDir !== undefined) {
      const ext = image.mimeType.slice('image/'.length);
      const stem =
        typeof file === 'string' && !path.isAbsolute(file)
          ? path.basename(file).replace(/\.(png|jpe?g|webp)$/i, '')
          : 'screenshot';
      await mkdir(settings.outputDir, { recursive: true });
      const limits = settings.screenshots ?? UNLIMITED;
      const outcome = await saveScreenshot(settings.outputDir, stem, ext, data, limits);
      if (outcome.saved) {
        const trimmed = outcome.deleted > 0 ? ` (${outcome.deleted} oldest deleted)` : '';
        notes.push(`Saved to ${outcome.file}${trimmed}`);
      } else {
        notes.push(
          `Not saved: ${outcome.reason}. Use type jpeg, a smaller maxDimension, or no fullPage.`,
        );
      }
    }
    if (notes.length > 0) response.addNote(notes.join('\n'));
  },
};

const getText: ServerStep = {
  async after(response, args) {
    const page = response.take('pageHtml');
    if (page === undefined) return;
    const maxChars = typeof args['maxChars'] === 'number' ? args['maxChars'] : undefined;
    // Loaded on first use: readability, turndown and linkedom add ~100 ms to every server start.
    const { htmlToMarkdown } = await import('../response/pageMarkdown.js');
    // In place of the handler's line that says it read the page.
    response.replaceFirstText(htmlToMarkdown(page, maxChars));
  },
};

/** browser_storage_state: the state goes to a file; the agent sees where, not what. */
const saveStorageState: ServerStep = {
  async before(args, settings) {
    const file = typeof args['filename'] === 'string' ? args['filename'] : undefined;
    // Checked before the browser is asked, so a refused name costs no cookie read.
    await stateFileTarget(file, settings.outputDir, (await settings.uploadRoots?.()) ?? []);
  },
  async after(response, args, settings) {
    const state = response.take('storageState');
    if (state === undefined) return;
    const name = typeof args['filename'] === 'string' ? args['filename'] : undefined;
    const file = await stateFileTarget(
      name,
      settings.outputDir,
      (await settings.uploadRoots?.()) ?? [],
    );
    await writeStateFile(file, JSON.stringify(state, null, 2));
    // In place of the handler's line that says it read the state.
    response.replaceFirstText(
      `- [Storage state](${shownPath(file)}): ${state.cookies.length} cookie(s), localStorage of ${state.origins.length} origin(s). Restore it with browser_set_storage_state or --storage-state.`,
    );
  },
};

/** browser_set_storage_state: the server reads the file; the browser gets its content. */
const loadStorageState: ServerStep = {
  async before(args, settings) {
    if (args['state'] !== undefined || typeof args['filename'] !== 'string') return;
    const roots = (await settings.uploadRoots?.()) ?? [];
    const file = await stateFileSource(args['filename'], settings.outputDir, roots);
    args['state'] = await readStateFile(file);
  },
};

/** browser_snapshot `filename`: the snapshot goes to a new file, the result says where. */
const snapshotToFile: ServerStep = {
  async before(args, settings) {
    const file = args['filename'];
    if (typeof file === 'string') await snapshotTarget(file, settings.outputDir);
  },
  async after(response, args, settings) {
    const file = args['filename'];
    const first = response.parts.find((part) => part.type === 'text');
    if (typeof file !== 'string' || first?.type !== 'text') return;
    const destination = await snapshotTarget(file, settings.outputDir);
    const saved = await writeSnapshot(destination, first.text, !path.isAbsolute(file));
    let replaced = false;
    response.mapText((text) => {
      if (replaced || text !== first.text) return text;
      replaced = true;
      return `Saved the snapshot (${text.length} characters) to ${saved}`;
    });
  },
};

/** `filename`: checked (and resolved) before the call, so a refused name costs nothing. */
async function resolveFilenameArg(
  args: Record<string, unknown>,
  settings: StepSettings,
  prefix: string,
  ext: string,
): Promise<void> {
  const file = args['filename'];
  if (typeof file === 'string')
    args['filename'] = await resolveNewFile(settings.outputDir, file, prefix, ext);
}

/** With `filename`, the result's text goes to that new file and the result names it. */
const resultText: ServerStep = {
  async before(args, settings) {
    await resolveFilenameArg(args, settings, 'result', 'log');
  },
  async after(response, args) {
    const file = args['filename'];
    const part = response.parts.find((p) => p.type === 'text');
    if (typeof file !== 'string' || part?.type !== 'text') return;
    const saved = await writeOutputFile(file, `${part.text}\n`, false);
    response.replaceFirstText(`Saved to ${shownPath(saved)}`);
  },
};

/** The bytes the browser sent (a PDF, a response body) go to a new file; the result names it. */
const resultBytes: ServerStep = {
  async before(args, settings) {
    await resolveFilenameArg(args, settings, 'file', 'bin');
  },
  async after(response, args, settings) {
    for (const parsed of response.take('files') ?? []) {
      const given = typeof args['filename'] === 'string' ? args['filename'] : undefined;
      const file =
        given ?? (await resolveNewFile(settings.outputDir, undefined, parsed.prefix, parsed.ext));
      const saved = await writeOutputFile(
        file,
        Buffer.from(parsed.data, 'base64'),
        given === undefined,
      );
      response.addNote(`${parsed.label}: ${shownPath(saved)}`);
    }
  },
};

const steps: Record<ServerStepKind, ServerStep> = {
  checkUploadFiles: fileUpload,
  saveScreenshot: screenshot,
  pageToMarkdown: getText,
  saveStorageState,
  loadStorageState,
  saveSnapshot: snapshotToFile,
  saveResultText: resultText,
  saveResultBytes: resultBytes,
};

export function serverStepFor(contract: ToolContract | undefined): ServerStep | undefined {
  return contract?.serverStep === undefined ? undefined : steps[contract.serverStep];
}
