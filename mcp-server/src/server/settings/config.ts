/**
 * The server's settings, resolved once at startup from the config file, the environment and the
 * flags (in rising order of precedence), with the defaults filled in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_TRANSACTION_LIMITS,
  type AdminSites,
  type PermissionMode,
  type ConsoleLevel,
  type HelloFrame,
  type OriginPolicy,
  type SessionSettings,
  type TransactionLimits,
} from '@browser-agent/protocol';
import { readAdminSites } from './adminPolicy.js';
import { ConfigError, readConfigFile } from './configFile.js';
import { loadSecrets, type Secrets } from './secrets.js';
import {
  DEFAULT_ACTION_TIMEOUT_MS,
  DEFAULT_HTTP_HEARTBEAT_SECONDS,
  DEFAULT_HTTP_SESSION_IDLE_SECONDS,
  DEFAULT_NAVIGATION_TIMEOUT_MS,
  DEFAULT_SCREENSHOT_MAX_FILE_BYTES,
  DEFAULT_SCREENSHOT_MAX_FILES,
  DEFAULT_VIEWPORT,
  type Config,
} from './configSchema.js';
import { configFromEnv, configFromFlags, mergeConfigs, SETTING_SOURCES } from './configSources.js';
import { launchExtras } from './launchArgs.js';
import { deviceEmulation, readInitScripts } from './deviceEmulation.js';

/** Together at most as much as 100 full-size files; keeps a small disk from filling up. */
export const DEFAULT_SCREENSHOT_MAX_TOTAL_BYTES = 500 * 1024 * 1024;

export interface ScreenshotLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxTotalBytes: number;
}

export interface Settings {
  launch: HelloFrame['launch'];
  /**
   * Given to every tab of the session. Defaults to 1280x720 in a launched browser; in the user's
   * own Chrome the tabs keep their window's size unless a viewport is set.
   */
  viewport: { width: number; height: number } | undefined;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  policy: OriginPolicy | undefined;
  /** Absolute; screenshots are saved here with timestamped names when set. */
  outputDir: string | undefined;
  screenshots: ScreenshotLimits;
  /** Absolute; browser_file_upload may read files here besides the client's roots and project. */
  uploadDirs: string[];
  toolNames: 'default' | 'executeautomation';
  /** Console entries at or above this level are reported in every result. */
  consoleLevel: ConsoleLevel;
  allowFileUrls: boolean;
  /** The agent's permission mode, unless the user picks another in the side panel. */
  permissionMode: PermissionMode | undefined;
  /** The admin file's site lists (adminPolicy.ts), which the panel cannot loosen. */
  adminSites: AdminSites | undefined;
  transactions: TransactionLimits;
  /** Streamable HTTP only: a session with no request open this long is closed. */
  httpSessionIdleMs: number;
  /** Absolute; a storage state file applied to the browser before the session's first call. */
  storageState: string | undefined;
  /** Secret names and values (`--secrets`): typed by name, shown by name. */
  secrets: Secrets;

  /** `--device` / `--mobile`: pixel ratio, mobile layout, touch, user agent. */
  emulation: SessionSettings['emulation'];
  /** `--init-script`: the scripts' joined source. */
  initScript: string | undefined;
  /** `--image-responses`: "omit" leaves images out of tool results. */
  imageResponses: 'allow' | 'omit';
  /** `--save-session`: a log of every call in the output directory. */
  saveSession: boolean;
  /** `--record-steps`: unset, launch mode records no steps (nobody watches its panel). */
  recordSteps: boolean | undefined;
  /** HTTP/SSE: Host names allowed besides loopback and the bound host (`--allowed-hosts`). */
  httpAllowedHosts: string[];
  /** HTTP/SSE: all clients share one bridge session (`--shared-browser-context`). */
  httpSharedBrowserContext: boolean;
  /** HTTP/SSE: ping interval and answer deadline for clients with an open stream. */
  httpHeartbeatMs: number;
}

/** What the command line said about settings; parsed by cliOptions, checked here. */
export interface SettingFlags {
  config?: string | undefined;
  /** Only when --headless or --headed was given. */
  headless?: boolean | undefined;
  executablePath?: string | undefined;
  /** `--isolated` and `--user-data-dir`; they apply in launch mode, from the flag or the file. */
  isolated?: boolean | undefined;
  userDataDir?: string | undefined;
  /** Raw values of the setting flags, by flag name (see SETTING_SOURCES). */
  values: Readonly<Record<string, string | boolean | undefined>>;
}

/** Flag names cliOptions must accept for the settings table, with their parseArgs types. */
export const SETTING_FLAG_TYPES = Object.fromEntries(
  SETTING_SOURCES.flatMap((s) =>
    s.flag === undefined ? [] : [[s.flag, { type: s.kind === 'bool' ? 'boolean' : 'string' }]],
  ),
) as Record<string, { type: 'boolean' | 'string' }>;

/** Throws ConfigError naming the source and key of the first bad setting. */
export function resolveSettings(
  flags: SettingFlags,
  /** `--launch` was given; `browser.launch` in the file turns launch mode on too. */
  launchFlag: boolean,
  env: NodeJS.ProcessEnv,
  defaultHeadless: boolean,
): Settings {
  const configPath = flags.config ?? (env['BROWSER_AGENT_CONFIG'] || undefined);
  const file: Config = configPath === undefined ? {} : readConfigFile(configPath);
  const fromFlags = configFromFlags(flags.values);
  const browserFlags = {
    ...(flags.headless !== undefined ? { headless: flags.headless } : {}),
    ...(flags.executablePath !== undefined ? { executablePath: flags.executablePath } : {}),
  };
  const c = mergeConfigs(mergeConfigs(mergeConfigs(file, configFromEnv(env)), fromFlags), {
    browser: browserFlags,
  });

  const launching = launchFlag || c.browser?.launch === true;
  if (!launching) refuseLaunchOnlyFlags(flags);
  const executable = c.browser?.executablePath;
  if (launching && executable !== undefined && !existsSync(executable)) {
    throw new ConfigError(
      `The browser executable does not exist: ${executable}. Fix --executable-path (or browser.executablePath in the config file), or leave it out to use CHROME_PATH or an installed Chromium.`,
    );
  }
  const proxy = c.browser?.launchOptions?.proxy;
  if (proxy?.bypass !== undefined && proxy.server === undefined) {
    throw new ConfigError(
      '--proxy-bypass needs --proxy-server (browser.launchOptions.proxy.server).',
    );
  }
  const extras = launchExtras({
    args: c.browser?.launchOptions?.args,
    proxy: proxy?.server === undefined ? undefined : { server: proxy.server, bypass: proxy.bypass },
    grantPermissions: c.browser?.grantPermissions,
  });
  const launch: HelloFrame['launch'] = launching
    ? {
        ...(extras.args.length > 0 ? { args: extras.args } : {}),
        ...(extras.grantPermissions.length > 0
          ? { grantPermissions: extras.grantPermissions }
          : {}),
        isolated: flags.isolated ?? false,
        ...(flags.userDataDir !== undefined ? { userDataDir: flags.userDataDir } : {}),
        headless: c.browser?.headless ?? defaultHeadless,
        ...(c.outputDir !== undefined ? { downloadDir: path.resolve(c.outputDir) } : {}),
        ...(c.browser?.executablePath !== undefined
          ? { executablePath: c.browser.executablePath }
          : {}),
      }
    : undefined;
  const device = deviceEmulation(c.browser?.device, c.browser?.mobile);
  return {
    launch,
    // An explicit --viewport beats the device's.
    viewport: c.viewport ?? device.viewport ?? (launching ? { ...DEFAULT_VIEWPORT } : undefined),
    emulation: device.emulation,
    initScript: readInitScripts(c.browser?.initScript),
    actionTimeoutMs: c.timeouts?.actionMs ?? DEFAULT_ACTION_TIMEOUT_MS,
    navigationTimeoutMs: c.timeouts?.navigationMs ?? DEFAULT_NAVIGATION_TIMEOUT_MS,
    policy: policyOf(c),
    outputDir: c.outputDir === undefined ? undefined : path.resolve(c.outputDir),
    screenshots: {
      maxFileBytes: c.screenshots?.maxFileBytes ?? DEFAULT_SCREENSHOT_MAX_FILE_BYTES,
      maxFiles: c.screenshots?.maxFiles ?? DEFAULT_SCREENSHOT_MAX_FILES,
      maxTotalBytes: c.screenshots?.maxTotalBytes ?? DEFAULT_SCREENSHOT_MAX_TOTAL_BYTES,
    },
    uploadDirs: (c.uploadDirs ?? []).map((dir) => path.resolve(dir)),
    toolNames: c.toolNames ?? 'default',
    consoleLevel: c.consoleLevel ?? 'info',
    allowFileUrls: c.allowFileUrls === true,
    permissionMode: c.permissionMode,
    adminSites: readAdminSites(env),
    transactions: { ...DEFAULT_TRANSACTION_LIMITS, ...c.transactions },
    httpSessionIdleMs: (c.http?.sessionIdleSeconds ?? DEFAULT_HTTP_SESSION_IDLE_SECONDS) * 1000,
    storageState: c.storageState === undefined ? undefined : path.resolve(c.storageState),
    secrets: loadSecrets(c.secrets),

    imageResponses: c.imageResponses ?? 'allow',
    saveSession: c.saveSession === true,
    recordSteps: c.recordSteps,
    httpAllowedHosts: c.http?.allowedHosts ?? [],
    httpSharedBrowserContext: c.http?.sharedBrowserContext === true,
    httpHeartbeatMs: (c.http?.heartbeatSeconds ?? DEFAULT_HTTP_HEARTBEAT_SECONDS) * 1000,
  };
}

/**
 * A launch flag outside launch mode would be silently ignored; refuse it instead. Their variables
 * (BROWSER_AGENT_HEADLESS, CHROME_PATH) are not refused: they are often set for other tools.
 */
function refuseLaunchOnlyFlags(flags: SettingFlags): void {
  const given: [string, unknown][] = [
    [flags.headless === false ? '--headed' : '--headless', flags.headless],
    ['--executable-path', flags.executablePath],
    ['--isolated', flags.isolated],
    ['--user-data-dir', flags.userDataDir],
  ];
  for (const flag of ['proxy-server', 'proxy-bypass', 'grant-permissions']) {
    given.push([`--${flag}`, flags.values[flag]]);
  }
  const stray = given.find(([, value]) => value !== undefined)?.[0];
  if (stray === undefined) return;
  throw new ConfigError(
    `${stray} only applies in launch mode: add --launch, or set "browser": { "launch": true } in the config file.`,
  );
}

/** The part of the settings the extension applies to the session's tabs. */
export function sessionSettingsOf(s: Settings): SessionSettings {
  return {
    ...(s.viewport ? { viewport: s.viewport } : {}),
    actionTimeoutMs: s.actionTimeoutMs,
    navigationTimeoutMs: s.navigationTimeoutMs,
    ...(s.allowFileUrls ? { allowFileUrls: true } : {}),
    ...(s.emulation ? { emulation: s.emulation } : {}),
    ...(s.launch !== undefined ? { startsWithBlankTab: true } : {}),
    // Each capture costs the tab a screenshot; in launch mode nobody watches the panel's recording.
    ...(s.recordSteps !== undefined || s.launch !== undefined
      ? { recordSteps: s.recordSteps ?? false }
      : {}),
    ...(s.initScript !== undefined ? { initScript: s.initScript } : {}),
    ...(s.permissionMode ? { permissionMode: s.permissionMode } : {}),
    ...(s.adminSites ? { adminSites: s.adminSites } : {}),
    // Only the browser we launched: the download folder is the browser's, not one tab's.
    ...(s.launch !== undefined && s.outputDir !== undefined ? { downloadDir: s.outputDir } : {}),
  };
}

function policyOf(c: Config): OriginPolicy | undefined {
  const allowed = c.allowedOrigins?.length ? c.allowedOrigins : undefined;
  const blocked = c.blockedOrigins?.length ? c.blockedOrigins : undefined;
  const policy: OriginPolicy = {
    ...(allowed ? { allowedOrigins: allowed } : {}),
    ...(blocked ? { blockedOrigins: blocked } : {}),
    ...(c.blockPrivateNetwork ? { blockPrivateNetwork: true } : {}),
  };
  return Object.keys(policy).length > 0 ? policy : undefined;
}
