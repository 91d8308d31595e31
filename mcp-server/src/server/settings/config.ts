/**
 * The server's settings, resolved once at startup from the config file, the environment and the
 * flags (in rising order of precedence), with the defaults filled in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
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
import { loadSecrets, secretDigests, secretPrints, type Secrets } from './secrets.js';
import type { Config } from './configSchema.js';
import {
  configFromEnv,
  configFromFlags,
  flagValue,
  mergeConfigs,
  type FlagValues,
} from './configSources.js';
import { launchExtras } from './launchArgs.js';
import { missingExecutableMessage } from './missingExecutable.js';
import { deviceEmulation, readInitScripts } from './deviceEmulation.js';
import { givenValueOf, valueOf } from './setting.js';
import {
  ALL_SETTINGS,
  httpSettings as H,
  launchSettings as L,
  originSettings as O,
  outputSettings as F,
  pageSettings as P,
  serverSettings,
  transactionSettings as T,
} from './options/index.js';

export interface ScreenshotLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxTotalBytes: number;
}

export interface Settings {
  launch: HelloFrame['launch'];
  /** Launch mode: the daemon starts the (headless) browser on initialize (daemon/launch/prelaunch.ts). */
  launchAhead: boolean;
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
  /** Raw values of the flags, by flag name (the entries in options/ read theirs). */
  values: FlagValues;
}

/** Throws ConfigError naming the source and key of the first bad setting. */
export function resolveSettings(
  flags: SettingFlags,
  /** `--launch` was given; `browser.launch` in the file turns launch mode on too. */
  launchFlag: boolean,
  env: NodeJS.ProcessEnv,
  defaultHeadless: boolean,
): Settings {
  const configEnv = serverSettings.config.env;
  const configPath = flags.config ?? ((configEnv && env[configEnv]) || undefined);
  const file: Config = configPath === undefined ? {} : readConfigFile(configPath);
  const fromFlags = configFromFlags(flags.values);
  const browserFlags = {
    ...(flags.headless !== undefined ? { headless: flags.headless } : {}),
    ...(flags.executablePath !== undefined ? { executablePath: flags.executablePath } : {}),
  };
  const c = mergeConfigs(mergeConfigs(mergeConfigs(file, configFromEnv(env)), fromFlags), {
    browser: browserFlags,
  });

  const launching = launchFlag || valueOf(c, L.launch);
  if (!launching) refuseLaunchOnlyFlags(flags);
  const executable = valueOf(c, L.executablePath);
  if (launching && executable !== undefined && !existsSync(executable)) {
    throw new ConfigError(
      missingExecutableMessage(executable, {
        flag: flags.executablePath,
        values: flags.values,
        env,
      }),
    );
  }
  const proxyServer = valueOf(c, L.proxyServer);
  const proxyBypass = valueOf(c, L.proxyBypass);
  if (proxyBypass !== undefined && proxyServer === undefined) {
    throw new ConfigError(
      '--proxy-bypass needs --proxy-server (browser.launchOptions.proxy.server).',
    );
  }
  const extras = launchExtras({
    args: valueOf(c, L.launchArgs),
    proxy: proxyServer === undefined ? undefined : { server: proxyServer, bypass: proxyBypass },
    grantPermissions: valueOf(c, L.grantPermissions),
  });
  const outputDir = valueOf(c, F.outputDir);
  const launch: HelloFrame['launch'] = launching
    ? {
        ...(extras.args.length > 0 ? { args: extras.args } : {}),
        ...(extras.grantPermissions.length > 0
          ? { grantPermissions: extras.grantPermissions }
          : {}),
        isolated: flags.isolated ?? false,
        ...(flags.userDataDir !== undefined ? { userDataDir: flags.userDataDir } : {}),
        headless: valueOf(c, L.headless) ?? defaultHeadless,
        ...(outputDir !== undefined ? { downloadDir: path.resolve(outputDir) } : {}),
        ...(executable !== undefined ? { executablePath: executable } : {}),
      }
    : undefined;
  const device = deviceEmulation(valueOf(c, P.device), valueOf(c, P.mobile));
  const storageState = valueOf(c, F.storageState);
  return {
    launch,
    launchAhead: launching && (valueOf(c, L.launchAhead) ?? true),
    // An explicit --viewport beats the device's; only a launched browser gets the default.
    viewport:
      givenValueOf(c, P.viewport) ??
      device.viewport ??
      (launching ? { ...valueOf(c, P.viewport) } : undefined),
    emulation: device.emulation,
    initScript: readInitScripts(valueOf(c, P.initScript)),
    actionTimeoutMs: valueOf(c, P.actionTimeoutMs),
    navigationTimeoutMs: valueOf(c, P.navigationTimeoutMs),
    policy: policyOf(c),
    outputDir: outputDir === undefined ? undefined : path.resolve(outputDir),
    screenshots: {
      maxFileBytes: valueOf(c, F.screenshotMaxFileBytes),
      maxFiles: valueOf(c, F.screenshotMaxFiles),
      maxTotalBytes: valueOf(c, F.screenshotMaxTotalBytes),
    },
    uploadDirs: (valueOf(c, F.uploadDirs) ?? []).map((dir) => path.resolve(dir)),
    toolNames: valueOf(c, serverSettings.toolNames),
    consoleLevel: valueOf(c, F.consoleLevel),
    allowFileUrls: valueOf(c, O.allowFileUrls),
    permissionMode: valueOf(c, O.permissionMode),
    adminSites: readAdminSites(env),
    transactions: transactionsOf(c),
    httpSessionIdleMs: valueOf(c, H.sessionIdleSeconds) * 1000,
    storageState: storageState === undefined ? undefined : path.resolve(storageState),
    secrets: loadSecrets(valueOf(c, F.secrets)),

    imageResponses: valueOf(c, F.imageResponses),
    saveSession: valueOf(c, F.saveSession),
    recordSteps: valueOf(c, F.recordSteps),
    httpAllowedHosts: valueOf(c, H.allowedHosts) ?? [],
    httpSharedBrowserContext: valueOf(c, H.sharedBrowserContext),
    httpHeartbeatMs: valueOf(c, H.heartbeatSeconds) * 1000,
  };
}

/**
 * A launch flag outside launch mode would be silently ignored; refuse it instead. Their variables
 * (BROWSER_AGENT_HEADLESS, CHROME_PATH) are not refused: they are often set for other tools.
 */
function refuseLaunchOnlyFlags(flags: SettingFlags): void {
  // The launch flags the tests and parseCli pass as fields, over the raw values.
  const values: FlagValues = {
    ...flags.values,
    headless: flags.headless === true ? true : undefined,
    headed: flags.headless === false ? true : undefined,
    'executable-path': flags.executablePath,
    isolated: flags.isolated,
    'user-data-dir': flags.userDataDir,
  };
  for (const entry of ALL_SETTINGS) {
    if (entry.needs !== 'launch' || entry.flag === undefined) continue;
    const given = flagValue(values, entry);
    if (given === undefined) continue;
    const name = given === false && entry.negation !== undefined ? entry.negation : entry.flag;
    throw new ConfigError(
      `--${name} only applies in launch mode: add --launch, or set "browser": { "launch": true } in the config file.`,
    );
  }
}

/** The protocol's defaults under the file's and the variables' limits, key by key. */
function transactionsOf(c: Config): TransactionLimits {
  const calls = valueOf(c, T.autoCheckpointEveryCalls);
  const seconds = valueOf(c, T.autoCheckpointEverySeconds);
  return {
    rollbackTimeoutMs: valueOf(c, T.rollbackTimeoutMs),
    maxCheckpoints: valueOf(c, T.maxCheckpoints),
    ...(calls !== undefined ? { autoCheckpointEveryCalls: calls } : {}),
    ...(seconds !== undefined ? { autoCheckpointEverySeconds: seconds } : {}),
  };
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
    ...(s.secrets.size > 0
      ? { secretDigests: secretDigests(s.secrets), secretPrints: secretPrints(s.secrets) }
      : {}),
    // Only the browser we launched: the download folder is the browser's, not one tab's.
    ...(s.launch !== undefined && s.outputDir !== undefined ? { downloadDir: s.outputDir } : {}),
  };
}

function policyOf(c: Config): OriginPolicy | undefined {
  const allowed = valueOf(c, O.allowedOrigins);
  const blocked = valueOf(c, O.blockedOrigins);
  const policy: OriginPolicy = {
    ...(allowed?.length ? { allowedOrigins: allowed } : {}),
    ...(blocked?.length ? { blockedOrigins: blocked } : {}),
    ...(valueOf(c, O.blockPrivateNetwork) ? { blockPrivateNetwork: true } : {}),
  };
  return Object.keys(policy).length > 0 ? policy : undefined;
}
