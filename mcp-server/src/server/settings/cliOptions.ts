import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { TOOL_GROUPS, type HelloFrame, type ToolGroup } from '@browser-agent/protocol';
import { checkProjectDir } from '../../shared/projectDir.js';
import type { SettingFlags } from './config.js';
import { flagValue, type FlagValues } from './configSources.js';
import type { SettingEntry } from './setting.js';
import { renderUsage } from './usage.js';
import {
  ALL_SETTINGS,
  httpSettings,
  launchSettings,
  serverSettings,
  SETTING_GROUPS,
} from './options/index.js';
import { parseHttpFlags, type HttpOptions } from '../http/httpOptions.js';

export interface CliOptions {
  launch: HelloFrame['launch'];
  bridgePort: number | undefined;
  /** Opt-in tool groups listed besides core. */
  caps: ToolGroup[];
  /** `--project`: checked, real path. */
  project?: string;
  /** Settings given on the command line; resolved with the config file and env (config.ts). */
  settingFlags: SettingFlags;
  /** Serve MCP over Streamable HTTP instead of stdio (`--port`). */
  http: HttpOptions | undefined;
}

export type CliParse =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** `--help`, generated from the entries (usage.ts). */
export const USAGE = renderUsage(SETTING_GROUPS);

/** Headless unless a display is there to show a window on. */
export function defaultHeadless(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== 'linux') return false;
  return !env['DISPLAY'] && !env['WAYLAND_DISPLAY'];
}

/** The parseArgs options of every entry with a flag, its aliases and its negation. */
function parseArgsOptions(): ParseArgsOptionsConfig {
  const options: ParseArgsOptionsConfig = {};
  for (const entry of ALL_SETTINGS) {
    if (entry.flag === undefined) continue;
    const type = entry.kind === 'bool' ? 'boolean' : 'string';
    const short = entry.aliases?.find((a) => a.length === 1);
    options[entry.flag] = { type, ...(short !== undefined ? { short } : {}) };
    for (const alias of entry.aliases ?? []) if (alias.length > 1) options[alias] = { type };
    if (entry.negation !== undefined) options[entry.negation] = { type: 'boolean' };
  }
  return options;
}

/** A flag given with its negation (`--headless --headed`), or undefined. */
function negationClash(values: FlagValues): string | undefined {
  const entry = ALL_SETTINGS.find(
    (e) => e.flag !== undefined && e.negation !== undefined && values[e.flag] && values[e.negation],
  );
  return entry === undefined
    ? undefined
    : `--${entry.flag ?? ''} and --${entry.negation ?? ''} contradict each other.`;
}

/** A flag that needs `--port` given without it, or undefined. */
function needsPort(values: FlagValues, http: HttpOptions | undefined): string | undefined {
  if (http !== undefined) return undefined;
  const entry = ALL_SETTINGS.find((e) => e.needs === 'port' && flagValue(values, e) !== undefined);
  return entry === undefined ? undefined : `--${entry.flag ?? ''} only applies with --port.`;
}

const S = serverSettings;
const L = launchSettings;
const H = httpSettings;

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliParse {
  const values: Record<string, string | boolean> = {};
  try {
    const parsed = parseArgs({ args: argv, strict: true, options: parseArgsOptions() }).values;
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string' || typeof value === 'boolean') values[name] = value;
    }
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  const text = (entry: SettingEntry): string | undefined => {
    const value = flagValue(values, entry);
    return typeof value === 'string' ? value : undefined;
  };
  const flag = (entry: SettingEntry): boolean | undefined => {
    const value = flagValue(values, entry);
    return typeof value === 'boolean' ? value : undefined;
  };
  if (flag(S.help)) return { kind: 'help' };
  if (flag(S.version)) return { kind: 'version' };
  const clash = negationClash(values);
  if (clash !== undefined) return { kind: 'error', message: clash };
  let bridgePort: number | undefined;
  const rawPort = text(S.bridgePort);
  if (rawPort !== undefined) {
    bridgePort = Number(rawPort);
    if (!Number.isInteger(bridgePort) || bridgePort < 1 || bridgePort > 65535) {
      return {
        kind: 'error',
        message: `--bridge-port must be a port number (1-65535), got "${rawPort}".`,
      };
    }
  }
  const caps = parseCaps(text(S.caps));
  if (typeof caps === 'string') return { kind: 'error', message: caps };
  let project: { project?: string } = {};
  const projectDir = text(S.project);
  if (projectDir !== undefined) {
    const check = checkProjectDir(projectDir);
    if (!check.ok) return { kind: 'error', message: `--project: ${check.message} ${check.hint}` };
    project = { project: check.dir };
  }
  const http = parseHttpFlags(text(H.port), text(H.host), flag(H.noToken));
  if (typeof http === 'string') return { kind: 'error', message: http };
  const portOnly = needsPort(values, http);
  if (portOnly !== undefined) return { kind: 'error', message: portOnly };
  const headless = flag(L.headless);
  const executablePath = text(L.executablePath);
  const isolated = flag(L.isolated);
  const userDataDir = text(L.userDataDir);
  const settingFlags: SettingFlags = {
    config: text(S.config),
    headless,
    executablePath,
    isolated,
    userDataDir,
    values,
  };
  // Without --launch, the launch flags wait for the config file: its browser.launch may turn
  // launch mode on, and resolveSettings refuses them if nothing does.
  if (!flag(L.launch)) {
    return {
      kind: 'run',
      options: { launch: undefined, bridgePort, caps, settingFlags, http, ...project },
    };
  }
  return {
    kind: 'run',
    options: {
      bridgePort,
      caps,
      ...project,
      settingFlags,
      http,
      launch: {
        headless: headless ?? defaultHeadless(env),
        isolated: isolated ?? false,
        ...(executablePath !== undefined ? { executablePath } : {}),
        ...(userDataDir !== undefined ? { userDataDir } : {}),
      },
    },
  };
}

/** The groups named by --caps, or what is wrong with the list. */
function parseCaps(raw: string | undefined): ToolGroup[] | string {
  if (raw === undefined) return [];
  const caps: ToolGroup[] = [];
  for (const name of raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const group = TOOL_GROUPS.find((g) => g === name);
    if (group === undefined) {
      return `--caps: unknown group "${name}"; known: ${TOOL_GROUPS.join(', ')}.`;
    }
    if (!caps.includes(group)) caps.push(group);
  }
  return caps;
}
