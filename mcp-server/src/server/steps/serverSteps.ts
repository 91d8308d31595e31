/**
 * Steps a few tools need on the MCP server's side of the bridge, where the file system and a
 * DOM library are: checking upload files exist before the browser is asked, saving a
 * screenshot, turning page HTML into Markdown. A contract names its step (`serverStep`); most
 * tools have none.
 */
import path from 'node:path';
import { type ConsoleLevel, type ServerStepKind, type ToolContract } from '@browser-agent/protocol';
import {
  PAGE_HTML_MARKER,
  RESULT_FILE_MARKER,
  resultFileSchema,
  type ResultFile,
} from '@browser-agent/protocol';
import {
  checkOutputName,
  fileStamp,
  outputDirOf,
  shownPath,
  writeOutputFile,
} from '../outputFiles/newFile.js';
import type { ScreenshotLimits } from '../settings/config.js';
import { saveScreenshot } from './screenshotFiles.js';
import { checkUploadPaths } from './uploadRoots.js';
import {
  readStateFile,
  stateFileName,
  stateFileSource,
  stateJsonOf,
  writeStateFile,
} from './storageStateFiles.js';
import { snapshotName } from './snapshotFiles.js';
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

/**
 * A screenshot `filename` names a new file in the output directory (the private one when none
 * is set; an absolute name must lie inside it). With a configured output directory every
 * screenshot is also kept there under a timestamped name (a relative `filename` names its
 * stem), within the size cap and the retention limits.
 */
const screenshot: ServerStep = {
  async before(args, settings) {
    const file = args['filename'];
    if (typeof file === 'string') await checkOutputName(settings.outputDir, file);
  },
  async after(response, args, settings) {
    const file = args['filename'];
    const image = response.parts.find((part) => part.type === 'image');
    if (image === undefined) return;
    const data = Buffer.from(image.data, 'base64');
    const notes: string[] = [];
    const exact =
      typeof file === 'string' && (path.isAbsolute(file) || settings.outputDir === undefined);
    if (exact) {
      notes.push(`Saved to ${await writeOutputFile(settings.outputDir, file, data, false)}`);
    }
    if (settings.outputDir !== undefined) {
      const ext = image.mimeType.slice('image/'.length);
      const stem =
        typeof file === 'string' && !exact
          ? path.basename(file).replace(/\.(png|jpe?g|webp)$/i, '')
          : 'screenshot';
      const dir = await outputDirOf(settings.outputDir);
      const limits = settings.screenshots ?? UNLIMITED;
      const outcome = await saveScreenshot(dir, stem, ext, data, limits);
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
    const maxChars = typeof args['maxChars'] === 'number' ? args['maxChars'] : undefined;
    // Loaded on first use: readability, turndown and linkedom add ~100 ms to every server start.
    const { htmlToMarkdown } = await import('../response/pageMarkdown.js');
    response.mapText((text) =>
      text.startsWith(PAGE_HTML_MARKER) ? htmlToMarkdown(text, maxChars) : text,
    );
  },
};

/** browser_storage_state: the state goes to a file; the agent sees where, not what. */
const saveStorageState: ServerStep = {
  async before(args, settings) {
    const file = typeof args['filename'] === 'string' ? args['filename'] : undefined;
    // Checked before the browser is asked, so a refused name costs no cookie read.
    await checkOutputName(settings.outputDir, file ?? stateFileName());
  },
  async after(response, args, settings) {
    let json: string | undefined;
    response.mapText((text) => {
      const state = stateJsonOf(text);
      if (state === undefined) return text;
      json = state;
      return '';
    });
    if (json === undefined) return;
    const name = typeof args['filename'] === 'string' ? args['filename'] : undefined;
    const file = await writeStateFile(settings.outputDir, name, json);
    const state = JSON.parse(json) as { cookies?: unknown[]; origins?: unknown[] };
    response.mapText((text) =>
      text === ''
        ? `- [Storage state](${shownPath(file)}): ${state.cookies?.length ?? 0} cookie(s), localStorage of ${state.origins?.length ?? 0} origin(s). Restore it with browser_set_storage_state or --storage-state.`
        : text,
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
    if (typeof file === 'string') await checkOutputName(settings.outputDir, snapshotName(file));
  },
  async after(response, args, settings) {
    const file = args['filename'];
    const first = response.parts.find((part) => part.type === 'text');
    if (typeof file !== 'string' || first?.type !== 'text') return;
    // A relative name that is taken gets -1, -2, …; an absolute one is refused.
    const saved = await writeOutputFile(
      settings.outputDir,
      snapshotName(file),
      first.text,
      !path.isAbsolute(file),
    );
    let replaced = false;
    response.mapText((text) => {
      if (replaced || text !== first.text) return text;
      replaced = true;
      return `Saved the snapshot (${text.length} characters) to ${saved}`;
    });
  },
};

/** `filename`: checked before the call, so a refused name costs nothing. */
async function checkFilenameArg(
  args: Record<string, unknown>,
  settings: StepSettings,
): Promise<void> {
  const file = args['filename'];
  if (typeof file === 'string') await checkOutputName(settings.outputDir, file);
}

/** With `filename`, the result's text goes to that new file and the result names it. */
const resultText: ServerStep = {
  async before(args, settings) {
    await checkFilenameArg(args, settings);
  },
  async after(response, args, settings) {
    const file = args['filename'];
    const part = response.parts.find((p) => p.type === 'text');
    if (typeof file !== 'string' || part?.type !== 'text') return;
    const saved = await writeOutputFile(settings.outputDir, file, `${part.text}\n`, false);
    response.replaceFirstText(`Saved to ${shownPath(saved)}`);
  },
};

/** The bytes the browser sent (a PDF, a response body) go to a new file; the result names it. */
const resultBytes: ServerStep = {
  async before(args, settings) {
    await checkFilenameArg(args, settings);
  },
  async after(response, args, settings) {
    for (const text of response.takeMarked(RESULT_FILE_MARKER)) {
      let parsed: ResultFile;
      try {
        parsed = resultFileSchema.parse(JSON.parse(text));
      } catch {
        continue;
      }
      const given = typeof args['filename'] === 'string' ? args['filename'] : undefined;
      const saved = await writeOutputFile(
        settings.outputDir,
        given ?? `${parsed.prefix}-${fileStamp()}.${parsed.ext}`,
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
