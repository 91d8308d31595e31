/**
 * One setting = one entry: its config key, flag (and aliases), environment variable, value type,
 * default and help text, declared once in `options/`. The CLI parser, the config schema, the
 * variable and flag readers, `--help` and the options tables of the docs are derived from the
 * entries, so adding a setting is one entry plus the code that uses its value.
 */
import type { z } from 'zod';

/** How the text of a flag or a variable becomes the key's value (configSources.ts converts). */
export type SettingKind = 'string' | 'bool' | 'int' | 'list' | 'size';

/** A name of Playwright MCP's for this setting: a flag or a config key (migration page rows). */
export interface TheirName {
  flag?: string;
  key?: string;
  note?: string;
}

export interface SettingEntry<T = unknown> {
  /** Dotted path in the config file (`browser.launchOptions.proxy.server`); none for per-run flags. */
  key?: string;
  /** Command-line flag without its dashes. */
  flag?: string;
  /** More names for the flag (a one-letter one is its short form: `-h`). */
  aliases?: readonly string[];
  /** A boolean flag that sets the value to false (`--headed` for `--headless`). */
  negation?: string;
  /** Environment variable. Read into `key` when the entry has one; else by the code that uses it. */
  env?: string;
  kind: SettingKind;
  /** The value's schema, for the config file and for every other source after conversion. */
  schema?: z.ZodType<T>;
  /** Typed by the schema (NoInfer: a default never widens the schema's type). */
  default?: NoInfer<T>;
  /** The default as --help and the docs state it, when the value alone does not say it. */
  defaultText?: string;
  /** Placeholder of the flag's value in --help: `<url>`. */
  arg?: string;
  /** One or two sentences, for --help and docs/configuration.md. */
  help: string;
  /** The flag is refused without launch mode, or without `--port`. */
  needs?: 'launch' | 'port';
  /** Playwright MCP's names for the same thing (docs/migration-playwright-mcp.md). */
  theirs?: readonly TheirName[];
}

/** A setting whose default is a value, so reading it never gives undefined. */
export type SettingWithDefault<T> = SettingEntry<T> & { default: NoInfer<T> };

export function setting<T>(entry: SettingWithDefault<T>): SettingWithDefault<T>;
export function setting<T>(entry: SettingEntry<T>): SettingEntry<T>;
export function setting<T>(entry: SettingEntry<T>): SettingEntry<T> {
  return entry;
}

/** Settings of one concern, shown under one heading in --help and the docs. */
export interface SettingGroup {
  title: string;
  settings: Readonly<Record<string, SettingEntry>>;
}

/** The value at a dotted key of a config object, or undefined. */
export function valueAt(config: Readonly<Record<string, unknown>>, key: string): unknown {
  let node: unknown = config;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The value a source gave the setting in a resolved config, without its default. The config was
 * checked against the schema built from these entries; the entry's schema types the value again
 * instead of a cast.
 */
export function givenValueOf<T>(
  config: Readonly<Record<string, unknown>>,
  entry: SettingEntry<T>,
): T | undefined {
  if (entry.key === undefined || entry.schema === undefined) {
    throw new Error(`--${entry.flag ?? '?'} has no config key: read its flag instead`);
  }
  const raw = valueAt(config, entry.key);
  return raw === undefined ? undefined : entry.schema.parse(raw);
}

/** The setting's value in a resolved config, else its default. */
export function valueOf<T>(
  config: Readonly<Record<string, unknown>>,
  entry: SettingWithDefault<T>,
): T;
export function valueOf<T>(
  config: Readonly<Record<string, unknown>>,
  entry: SettingEntry<T>,
): T | undefined;
export function valueOf<T>(
  config: Readonly<Record<string, unknown>>,
  entry: SettingEntry<T>,
): T | undefined {
  return givenValueOf(config, entry) ?? entry.default;
}
