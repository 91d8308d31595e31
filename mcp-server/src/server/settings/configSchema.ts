/**
 * The settings a server runs with, as one zod schema: the JSON config file (`--config`) is
 * checked against it, and so is the merge of file, environment and flags. Every object is
 * strict, so a misspelt key is refused at startup instead of being silently ignored.
 */
import { z } from 'zod';
import {
  parseOriginEntry,
  PERMISSION_MODES,
  TRANSACTION_LIMIT_RANGES,
} from '@browser-agent/protocol';

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
      /** Launch mode, in Playwright MCP's shape: extra Chromium flags and the proxy. */
      launchOptions: z
        .strictObject({
          args: z
            .array(text(), { error: 'expected an array of Chromium flags like "--lang=de"' })
            .max(100, { error: 'expected at most 100 entries' })
            .optional(),
          proxy: z
            .strictObject({
              /** `--proxy-server`: "http://host:port", "socks5://host:port". */
              server: text().optional(),
              /** `--proxy-bypass`: comma-separated hosts that skip the proxy. */
              bypass: text().optional(),
            })
            .optional(),
        })
        .optional(),
      /** `--device`: a phone or tablet of the device table (deviceEmulation.ts). */
      device: text().optional(),
      /** `--mobile`: mobile layout and touch on the configured viewport. */
      mobile: bool().optional(),
      /** `--init-script`: JavaScript files run in every document before the page's own scripts. */
      initScript: z
        .array(text(), { error: 'expected an array of JavaScript file paths' })
        .max(20, { error: 'expected at most 20 entries' })
        .optional(),
      /** Launch mode: permissions granted to every origin (`--grant-permissions`). */
      grantPermissions: z
        .array(text(), { error: 'expected an array of permission names like "geolocation"' })
        .max(50, { error: 'expected at most 50 entries' })
        .optional(),
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
  /** When the agent asks the user before acting (docs/permissions.md); the panel may change it. */
  permissionMode: z
    .enum(PERMISSION_MODES, { error: 'expected "ask", "per-site" or "autonomous"' })
    .optional(),
  /** Directories browser_file_upload may take files from, besides the client's roots and the project. */
  uploadDirs: z
    .array(text(), { error: 'expected an array of directory paths' })
    .max(100, { error: 'expected at most 100 entries' })
    .optional(),
  /** Where screenshots and other files are written when the agent names no path. */
  outputDir: text().optional(),
  /** A storage state file (Playwright's format) loaded into the browser before the first call. */
  storageState: text().optional(),
  /**
   * Secrets typed by name and never shown: a dotenv file's path, or the names and values
   * themselves (as Playwright MCP's config takes them).
   */
  secrets: z
    .union([text(), z.record(z.string().min(1).max(200), z.string().max(100_000))], {
      error: 'expected a dotenv file path or an object of names to values',
    })
    .optional(),
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
      /** Host header names served besides the loopback names and the bound host; "*": any. */
      allowedHosts: z
        .array(text(), { error: 'expected an array of host names like "example.test:8931"' })
        .max(100, { error: 'expected at most 100 entries' })
        .optional(),
      /** Every HTTP/SSE client drives one shared bridge session (`--shared-browser-context`). */
      sharedBrowserContext: bool().optional(),
      /** How often an HTTP/SSE client with an open stream is pinged; no answer ends its session. */
      heartbeatSeconds: positiveInt('a positive integer (seconds)').optional(),
    })
    .optional(),
  /** `--save-session`: every call and its result to a session log in the output directory. */
  saveSession: bool().optional(),
  /** `--record-steps`: the panel's recording of steps; off in launch mode unless set (#26). */
  recordSteps: bool().optional(),
  /** `--image-responses`: "omit" leaves images out of results (screenshots still save to files). */
  imageResponses: z.enum(['allow', 'omit'], { error: 'expected "allow" or "omit"' }).optional(),
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
/** A client that cannot answer a ping within this long is gone (or hung): its session ends. */
export const DEFAULT_HTTP_HEARTBEAT_SECONDS = 30;
export const DEFAULT_NAVIGATION_TIMEOUT_MS = 30_000;
export const DEFAULT_SCREENSHOT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_SCREENSHOT_MAX_FILES = 100;
