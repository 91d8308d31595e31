/** Reading and checking the JSON config file; every failure names the file and the bad key. */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { configSchema, type Config } from './configSchema.js';

/** A setting that cannot be used; the CLI prints it and exits with code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** One line per problem: `config viewport.width: expected a positive integer, got "wide"`. */
export function describeIssues(source: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const at = issue.path.map(String).join('.');
      const where = at === '' ? source : `${source} ${at}`;
      if (issue.code === 'unrecognized_keys') {
        const prefix = at === '' ? '' : `${at}.`;
        const keys = issue.keys.map((k) => `${prefix}${k}`).join(', ');
        return `${source}: unknown key ${keys}; see docs/configuration.md for the keys there are`;
      }
      const got = 'input' in issue ? `, got ${shown(issue.input)}` : '';
      return `${where}: ${issue.message}${got}`;
    })
    .join('\n');
}

export function parseConfig(value: unknown, source: string): Config {
  const parsed = configSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(source, parsed.error.issues));
  return parsed.data;
}

export function readConfigFile(file: string): Config {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (code ?? String(err));
    throw new ConfigError(`config file ${file}: cannot be read (${why})`);
  }
  // Windows editors save UTF-8 with a byte-order mark, which JSON.parse rejects.
  if (raw.startsWith('\uFEFF')) raw = raw.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`config file ${file}: not valid JSON (${why})`);
  }
  return parseConfig(json, 'config');
}
