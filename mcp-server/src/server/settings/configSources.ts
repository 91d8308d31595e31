/**
 * The three places a setting can come from, and their order: a command-line flag beats an
 * environment variable, which beats the config file. Each entry (options/) names its variable
 * and its flag; every value from any source is checked against the same schema.
 */
import { ConfigError, parseConfig } from './configFile.js';
import type { Config } from './configSchema.js';
import type { SettingEntry, SettingKind } from './setting.js';
import { ALL_SETTINGS } from './options/index.js';

/** Raw values of parseArgs, by flag name. */
export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;

/**
 * What the command line gave for an entry: its flag or an alias, or false from its negation.
 * parseCli refuses a flag given together with its negation before this is asked.
 */
export function flagValue(values: FlagValues, entry: SettingEntry): string | boolean | undefined {
  if (entry.flag === undefined) return undefined;
  for (const name of [entry.flag, ...(entry.aliases ?? [])]) {
    if (values[name] !== undefined) return values[name];
  }
  if (entry.negation !== undefined && values[entry.negation] === true) return false;
  return undefined;
}

/**
 * Text from a variable or flag as the schema's type. What does not convert is passed on as it
 * is, so the schema's error shows the text the user wrote.
 */
function convert(raw: string | boolean, kind: SettingKind): unknown {
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
function checked(entry: SettingEntry & { key: string }, raw: string | boolean, label: string) {
  let value: unknown;
  try {
    value = convert(raw, entry.kind);
  } catch (err) {
    throw new ConfigError(`${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const single: Record<string, unknown> = {};
  setAt(single, entry.key.split('.'), value);
  return parseConfig(single, label);
}

/** The entries that are config keys; the others are read by the code that uses them. */
const KEYED = ALL_SETTINGS.flatMap((e) => (e.key === undefined ? [] : [{ ...e, key: e.key }]));

export function configFromEnv(env: NodeJS.ProcessEnv): Config {
  let config: Config = {};
  for (const entry of KEYED) {
    const raw = entry.env === undefined ? undefined : env[entry.env];
    if (raw === undefined || raw === '' || entry.env === undefined) continue;
    config = mergeConfigs(config, checked(entry, raw, entry.env));
  }
  return config;
}

export function configFromFlags(values: FlagValues): Config {
  let config: Config = {};
  for (const entry of KEYED) {
    const raw = flagValue(values, entry);
    if (raw === undefined) continue;
    config = mergeConfigs(config, checked(entry, raw, `--${entry.flag ?? entry.key}`));
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
