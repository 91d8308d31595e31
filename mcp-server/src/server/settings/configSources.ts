/**
 * The three places a setting can come from, and their order: a command-line flag beats an
 * environment variable, which beats the config file. One table names, for each setting, its
 * variable and its flag; every value from any source is checked against the same schema.
 */
import { ConfigError, parseConfig } from './configFile.js';
import type { Config } from './configSchema.js';

type Kind = 'string' | 'bool' | 'int' | 'list' | 'size';

interface Source {
  /** Where the value goes in the config object. */
  path: readonly string[];
  env?: string;
  /** Name of the flag in CliOptions.settingFlags (without the dashes). */
  flag?: string;
  kind: Kind;
}

export const SETTING_SOURCES: readonly Source[] = [
  { path: ['browser', 'executablePath'], env: 'CHROME_PATH', kind: 'string' },
  { path: ['browser', 'headless'], env: 'BROWSER_AGENT_HEADLESS', kind: 'bool' },
  {
    path: ['browser', 'launchOptions', 'proxy', 'server'],
    env: 'BROWSER_AGENT_PROXY_SERVER',
    flag: 'proxy-server',
    kind: 'string',
  },
  {
    path: ['browser', 'launchOptions', 'proxy', 'bypass'],
    env: 'BROWSER_AGENT_PROXY_BYPASS',
    flag: 'proxy-bypass',
    kind: 'string',
  },
  { path: ['browser', 'device'], env: 'BROWSER_AGENT_DEVICE', flag: 'device', kind: 'string' },
  { path: ['browser', 'mobile'], env: 'BROWSER_AGENT_MOBILE', flag: 'mobile', kind: 'bool' },
  {
    path: ['browser', 'initScript'],
    env: 'BROWSER_AGENT_INIT_SCRIPT',
    flag: 'init-script',
    kind: 'list',
  },
  {
    path: ['browser', 'grantPermissions'],
    env: 'BROWSER_AGENT_GRANT_PERMISSIONS',
    flag: 'grant-permissions',
    kind: 'list',
  },
  { path: ['viewport'], env: 'BROWSER_AGENT_VIEWPORT', flag: 'viewport', kind: 'size' },
  {
    path: ['timeouts', 'actionMs'],
    env: 'BROWSER_AGENT_ACTION_TIMEOUT_MS',
    flag: 'timeout-action',
    kind: 'int',
  },
  {
    path: ['timeouts', 'navigationMs'],
    env: 'BROWSER_AGENT_NAVIGATION_TIMEOUT_MS',
    flag: 'timeout-navigation',
    kind: 'int',
  },
  {
    path: ['allowedOrigins'],
    env: 'BROWSER_AGENT_ALLOWED_ORIGINS',
    flag: 'allowed-origins',
    kind: 'list',
  },
  {
    path: ['blockedOrigins'],
    env: 'BROWSER_AGENT_BLOCKED_ORIGINS',
    flag: 'blocked-origins',
    kind: 'list',
  },
  {
    path: ['blockPrivateNetwork'],
    env: 'BROWSER_AGENT_BLOCK_PRIVATE_NETWORK',
    flag: 'block-private-network',
    kind: 'bool',
  },
  {
    path: ['allowFileUrls'],
    env: 'BROWSER_AGENT_ALLOW_FILE_URLS',
    flag: 'allow-file-urls',
    kind: 'bool',
  },
  {
    path: ['permissionMode'],
    env: 'BROWSER_AGENT_PERMISSION_MODE',
    flag: 'permission-mode',
    kind: 'string',
  },
  { path: ['uploadDirs'], env: 'BROWSER_AGENT_UPLOAD_DIRS', flag: 'upload-dirs', kind: 'list' },
  { path: ['outputDir'], env: 'BROWSER_AGENT_OUTPUT_DIR', flag: 'output-dir', kind: 'string' },
  {
    path: ['storageState'],
    env: 'BROWSER_AGENT_STORAGE_STATE',
    flag: 'storage-state',
    kind: 'string',
  },
  { path: ['secrets'], env: 'BROWSER_AGENT_SECRETS', flag: 'secrets', kind: 'string' },
  {
    path: ['screenshots', 'maxFileBytes'],
    env: 'BROWSER_AGENT_SCREENSHOT_MAX_BYTES',
    kind: 'int',
  },
  { path: ['screenshots', 'maxFiles'], env: 'BROWSER_AGENT_SCREENSHOT_MAX_FILES', kind: 'int' },
  {
    path: ['screenshots', 'maxTotalBytes'],
    env: 'BROWSER_AGENT_SCREENSHOT_MAX_TOTAL_BYTES',
    kind: 'int',
  },
  // Playwright MCP's name for the cap on what the output directory holds.
  { path: ['screenshots', 'maxTotalBytes'], flag: 'output-max-size', kind: 'int' },
  {
    path: ['transactions', 'rollbackTimeoutMs'],
    env: 'BROWSER_AGENT_ROLLBACK_TIMEOUT_MS',
    kind: 'int',
  },
  { path: ['transactions', 'maxCheckpoints'], env: 'BROWSER_AGENT_MAX_CHECKPOINTS', kind: 'int' },
  {
    path: ['transactions', 'autoCheckpointEveryCalls'],
    env: 'BROWSER_AGENT_AUTO_CHECKPOINT_CALLS',
    kind: 'int',
  },
  {
    path: ['transactions', 'autoCheckpointEverySeconds'],
    env: 'BROWSER_AGENT_AUTO_CHECKPOINT_SECONDS',
    kind: 'int',
  },
  { path: ['toolNames'], env: 'BROWSER_AGENT_TOOL_NAMES', flag: 'tool-names', kind: 'string' },
  {
    path: ['saveSession'],
    env: 'BROWSER_AGENT_SAVE_SESSION',
    flag: 'save-session',
    kind: 'bool',
  },
  { path: ['recordSteps'], env: 'BROWSER_AGENT_RECORD_STEPS', flag: 'record-steps', kind: 'bool' },
  {
    path: ['imageResponses'],
    env: 'BROWSER_AGENT_IMAGE_RESPONSES',
    flag: 'image-responses',
    kind: 'string',
  },
  {
    path: ['consoleLevel'],
    env: 'BROWSER_AGENT_CONSOLE_LEVEL',
    flag: 'console-level',
    kind: 'string',
  },
  {
    path: ['http', 'sessionIdleSeconds'],
    env: 'BROWSER_AGENT_HTTP_SESSION_IDLE_SECONDS',
    flag: 'session-idle',
    kind: 'int',
  },
  {
    path: ['http', 'allowedHosts'],
    env: 'BROWSER_AGENT_ALLOWED_HOSTS',
    flag: 'allowed-hosts',
    kind: 'list',
  },
  {
    path: ['http', 'sharedBrowserContext'],
    env: 'BROWSER_AGENT_SHARED_BROWSER_CONTEXT',
    flag: 'shared-browser-context',
    kind: 'bool',
  },
  {
    path: ['http', 'heartbeatSeconds'],
    env: 'BROWSER_AGENT_HTTP_HEARTBEAT_SECONDS',
    kind: 'int',
  },
];

/**
 * Text from a variable or flag as the schema's type. What does not convert is passed on as it
 * is, so the schema's error shows the text the user wrote.
 */
function convert(raw: string | boolean, kind: Kind): unknown {
  if (typeof raw === 'boolean') return raw;
  const s = raw.trim();
  switch (kind) {
    case 'string':
      return raw;
    case 'bool':
      if (['1', 'true', 'yes', 'on'].includes(s.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off', ''].includes(s.toLowerCase())) return false;
      return s;
    case 'int':
      return /^-?\d+$/.test(s) ? Number(s) : s;
    case 'list':
      return s
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'size': {
      const m = /^(\d+)\s*[x×]\s*(\d+)$/i.exec(s);
      if (!m) throw new ConfigError(`expected WIDTHxHEIGHT like 1280x720, got "${s}"`);
      return { width: Number(m[1]), height: Number(m[2]) };
    }
  }
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else node = node[key] = {};
  }
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
}

/** One setting from one source, checked on its own so the error can name its variable or flag. */
function checked(source: Source, raw: string | boolean, label: string): Config {
  let value: unknown;
  try {
    value = convert(raw, source.kind);
  } catch (err) {
    throw new ConfigError(`${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const single: Record<string, unknown> = {};
  setAt(single, source.path, value);
  return parseConfig(single, label);
}

export function configFromEnv(env: NodeJS.ProcessEnv): Config {
  let config: Config = {};
  for (const source of SETTING_SOURCES) {
    const raw = source.env === undefined ? undefined : env[source.env];
    if (raw === undefined || raw === '' || source.env === undefined) continue;
    config = mergeConfigs(config, checked(source, raw, source.env));
  }
  return config;
}

export function configFromFlags(flags: Readonly<Record<string, string | boolean | undefined>>) {
  let config: Config = {};
  for (const source of SETTING_SOURCES) {
    const raw = source.flag === undefined ? undefined : flags[source.flag];
    if (raw === undefined || source.flag === undefined) continue;
    config = mergeConfigs(config, checked(source, raw, `--${source.flag}`));
  }
  return config;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `over` wins key by key; nested objects merge, arrays and values replace. */
export function mergeConfigs(base: Config, over: Config): Config {
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) {
      if (value === undefined) continue;
      const prev = out[key];
      out[key] = isPlainObject(prev) && isPlainObject(value) ? merge(prev, value) : value;
    }
    return out;
  };
  // Both halves were checked; checking the merge keeps the type honest without a cast.
  return parseConfig(merge(base, over), 'settings');
}
