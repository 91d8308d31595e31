/** What the server writes and reads for the agent: output files, uploads, state, secrets, results. */
import { z } from 'zod';
import { setting } from '../setting.js';
import { bool, oneOf, positiveInt, text, textList } from './values.js';

const MIB = 1024 * 1024;

export const outputSettings = {
  outputDir: setting({
    key: 'outputDir',
    flag: 'output-dir',
    env: 'BROWSER_AGENT_OUTPUT_DIR',
    kind: 'string',
    schema: text(),
    defaultText: 'none: nothing saved unasked',
    arg: '<dir>',
    help: 'Save every screenshot here, with a timestamped name; console logs and other files go here too.',
    theirs: [{ flag: '--output-dir' }, { key: 'outputDir' }],
  }),
  screenshotMaxTotalBytes: setting({
    key: 'screenshots.maxTotalBytes',
    // Playwright MCP's name for the cap on what the output directory holds.
    flag: 'output-max-size',
    env: 'BROWSER_AGENT_SCREENSHOT_MAX_TOTAL_BYTES',
    kind: 'int',
    schema: positiveInt(),
    // Together at most as much as 100 full-size files; keeps a small disk from filling up.
    default: 500 * MIB,
    defaultText: '500 MiB',
    arg: '<n>',
    help: 'Bytes the screenshots in --output-dir may take; the oldest go first.',
    theirs: [
      {
        flag: '--output-max-size',
        note: 'bytes; past it the oldest screenshots in the output dir are deleted (`screenshots.maxTotalBytes`)',
      },
      { key: 'outputMaxSize', note: 'bytes' },
    ],
  }),
  screenshotMaxFileBytes: setting({
    key: 'screenshots.maxFileBytes',
    env: 'BROWSER_AGENT_SCREENSHOT_MAX_BYTES',
    kind: 'int',
    schema: positiveInt(),
    default: 10 * MIB,
    defaultText: '10 MiB',
    help: 'A screenshot larger than this is not written to the output directory.',
  }),
  screenshotMaxFiles: setting({
    key: 'screenshots.maxFiles',
    env: 'BROWSER_AGENT_SCREENSHOT_MAX_FILES',
    kind: 'int',
    schema: positiveInt(),
    default: 100,
    help: 'Timestamped screenshots kept in the output directory; the oldest go first.',
  }),
  uploadDirs: setting({
    key: 'uploadDirs',
    flag: 'upload-dirs',
    env: 'BROWSER_AGENT_UPLOAD_DIRS',
    kind: 'list',
    schema: textList('directory paths', 100),
    defaultText: "none: only the client's roots and the project",
    arg: '<dirs>',
    help: 'Comma-separated directories uploads may come from (besides roots).',
  }),
  storageState: setting({
    key: 'storageState',
    flag: 'storage-state',
    env: 'BROWSER_AGENT_STORAGE_STATE',
    kind: 'string',
    schema: text(),
    arg: '<file>',
    help: "Load cookies and localStorage from this file (Playwright's storageState format) before the first tool call.",
    theirs: [{ flag: '--storage-state' }],
  }),
  secrets: setting({
    key: 'secrets',
    flag: 'secrets',
    env: 'BROWSER_AGENT_SECRETS',
    kind: 'string',
    // A dotenv file's path, or (in the config file) the names and values as Playwright MCP takes them.
    schema: z.union([text(), z.record(z.string().min(1).max(200), z.string().max(100_000))], {
      error: 'expected a dotenv file path or an object of names to values',
    }),
    arg: '<file>',
    help: 'dotenv file of secrets: an agent types one by its name, and its value is shown as <secret>NAME</secret> in every result.',
    theirs: [{ flag: '--secrets' }],
  }),
  consoleLevel: setting({
    key: 'consoleLevel',
    flag: 'console-level',
    env: 'BROWSER_AGENT_CONSOLE_LEVEL',
    kind: 'string',
    schema: oneOf(['error', 'warning', 'info', 'debug']),
    default: 'info',
    arg: '<l>',
    help: 'Report console entries at or above this level in every result: error, warning, info or debug.',
    theirs: [{ flag: '--console-level' }],
  }),
  imageResponses: setting({
    key: 'imageResponses',
    flag: 'image-responses',
    env: 'BROWSER_AGENT_IMAGE_RESPONSES',
    kind: 'string',
    schema: oneOf(['allow', 'omit']),
    default: 'allow',
    arg: '<m>',
    help: '"omit": leave images out of results (screenshots still save to --output-dir or their filename).',
    theirs: [
      { flag: '--image-responses', note: '`allow` or `omit`' },
      { key: 'imageResponses', note: '`allow` or `omit`' },
    ],
  }),
  saveSession: setting({
    key: 'saveSession',
    flag: 'save-session',
    env: 'BROWSER_AGENT_SAVE_SESSION',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Log every call (arguments, result, time) to session-<time>.md in --output-dir; typed text only where the result echoed it.',
    theirs: [
      {
        flag: '--save-session',
        note: "`session-<time>.md` in `--output-dir`: each call's arguments, result and time",
      },
      { key: 'saveSession', note: 'see `--save-session`' },
    ],
  }),
  recordSteps: setting({
    key: 'recordSteps',
    flag: 'record-steps',
    env: 'BROWSER_AGENT_RECORD_STEPS',
    kind: 'bool',
    schema: bool(),
    defaultText: "the panel's setting; off in launch mode",
    help: "Keep a picture of each step for the side panel's recording (on in your own Chrome by the panel's setting, off in launch mode).",
  }),
};
