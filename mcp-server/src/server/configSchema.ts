/**
 * The settings a server runs with, as one zod schema: the JSON config file (`--config`) is
 * checked against it, and so is the merge of file, environment and flags. Every object is
 * strict, so a misspelt key is refused at startup instead of being silently ignored.
 */
import { z } from 'zod';
import { parseOriginEntry, TRANSACTION_LIMIT_RANGES } from '@browser-agent/protocol';

const positiveInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .positive({
      error: `expected ${what}`,
    });
/** The protocol's range for a transaction limit, with an error that states it. */
const limit = (key: keyof typeof TRANSACTION_LIMIT_RANGES) => {
  const { min, max } = TRANSACTION_LIMIT_RANGES[key];
  const error = `expected a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).optional();
};
const bool = () => z.boolean({ error: 'expected true or false' });
const text = () => z.string({ error: 'expected a string' }).min(1, { error: 'expected a string' });
const originList = () =>
  z
    .array(
      text().refine((entry) => parseOriginEntry(entry) !== undefined, {
        error:
          'expected an origin ("https://a.test", "http://localhost:*") or a host ("a.test", "*.a.test", "localhost:3000")',
      }),
      { error: 'expected an array of origins like "https://example.com"' },
    )
    .max(200, { error: 'expected at most 200 entries' });

export const configSchema = z.strictObject({
  browser: z
    .strictObject({
      /** Start a browser with the extension instead of attaching to the user's (`--launch`). */
      launch: bool().optional(),
      executablePath: text().optional(),
      headless: bool().optional(),
    })
    .optional(),
  viewport: z
    .strictObject({ width: positiveInt(), height: positiveInt() }, { error: 'expected an object' })
    .optional(),
  timeouts: z
    .strictObject({
      /** Clicks, typing and the other input actions. */
      actionMs: positiveInt('a positive integer (milliseconds)').optional(),
      navigationMs: positiveInt('a positive integer (milliseconds)').optional(),
    })
    .optional(),
  allowedOrigins: originList().optional(),
  blockedOrigins: originList().optional(),
  blockPrivateNetwork: bool().optional(),
  allowFileUrls: bool().optional(),
  /** Directories browser_file_upload may take files from, besides the client's roots and the project. */
  uploadDirs: z
    .array(text(), { error: 'expected an array of directory paths' })
    .max(100, { error: 'expected at most 100 entries' })
    .optional(),
  /** Where screenshots and other files are written when the agent names no path. */
  outputDir: text().optional(),
  screenshots: z
    .strictObject({
      maxFileBytes: positiveInt().optional(),
      maxFiles: positiveInt().optional(),
      maxTotalBytes: positiveInt().optional(),
    })
    .optional(),
  transactions: z
    .strictObject({
      rollbackTimeoutMs: limit('rollbackTimeoutMs'),
      maxCheckpoints: limit('maxCheckpoints'),
      autoCheckpointEveryCalls: limit('autoCheckpointEveryCalls'),
      autoCheckpointEverySeconds: limit('autoCheckpointEverySeconds'),
    })
    .optional(),
  http: z
    .strictObject({
      /** A Streamable HTTP session with no request open this long ends, and its tabs close. */
      sessionIdleSeconds: positiveInt('a positive integer (seconds)').optional(),
    })
    .optional(),
  /** Console entries at or above this level are reported in every result (`--console-level`). */
  consoleLevel: z
    .enum(['error', 'warning', 'info', 'debug'], {
      error: 'expected "error", "warning", "info" or "debug"',
    })
    .optional(),
  /** Extra tool names for agents written against another server (`--tool-names`). */
  toolNames: z
    .enum(['default', 'executeautomation'], { error: 'expected "default" or "executeautomation"' })
    .optional(),
});

export type Config = z.infer<typeof configSchema>;

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;
export const DEFAULT_ACTION_TIMEOUT_MS = 5_000;
/** Long enough for an agent thinking between calls; short enough that abandoned sessions go. */
export const DEFAULT_HTTP_SESSION_IDLE_SECONDS = 30 * 60;
export const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
export const DEFAULT_SCREENSHOT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_SCREENSHOT_MAX_FILES = 100;
