/**
 * `--secrets <dotenv file>` (config key `secrets`): values the agent types by name and never
 * sees. Playwright MCP's convention, kept so its users' prompts work unchanged:
 *   - an argument that a contract names in `secretArgs` (browser_type's text, browser_fill_form's
 *     values) and that equals a secret's NAME is replaced by its value on the way to the browser;
 *   - every occurrence of a secret's VALUE in any result (text, structured content, errors) is
 *     replaced by `<secret>NAME</secret>` on the way back, whichever tool produced it.
 * Screenshots are pixels and are not rewritten (password fields are masked while they are taken).
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContract } from '@browser-agent/protocol';
import { ConfigError } from './configFile.js';

/** Name → value; empty values are dropped (they would match everywhere). */
export type Secrets = ReadonlyMap<string, string>;

export const NO_SECRETS: Secrets = new Map();

/** dotenv: NAME=value lines; `export ` prefixes, `#` comments and quotes as dotenv allows. */
export function parseDotenv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const name = m[1] ?? '';
    let value = m[2] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    out.set(name, value);
  }
  return out;
}

/** The config's `secrets`: a dotenv file's path (the flag's form) or an object of names to values. */
export function loadSecrets(source: string | Record<string, string> | undefined): Secrets {
  if (source === undefined) return NO_SECRETS;
  let entries: Map<string, string>;
  if (typeof source === 'string') {
    let text: string;
    try {
      text = readFileSync(source, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `Could not read the secrets file ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Fix --secrets (or "secrets" in the config file).`,
      );
    }
    entries = parseDotenv(text);
  } else {
    entries = new Map(Object.entries(source));
  }
  return new Map([...entries].filter(([, value]) => value !== ''));
}

/** The forms a value takes in output: as is, JSON-escaped, URL-encoded. */
function formsOf(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  return [...forms].filter((f) => f !== '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const patterns = new WeakMap<Secrets, { re: RegExp; names: Map<string, string> }>();

/** One pattern for every form of every value, longest first, so one pass replaces them all. */
function patternOf(secrets: Secrets): { re: RegExp; names: Map<string, string> } {
  const known = patterns.get(secrets);
  if (known !== undefined) return known;
  const names = new Map<string, string>();
  for (const [name, value] of secrets)
    for (const form of formsOf(value)) if (!names.has(form)) names.set(form, name);
  const forms = [...names.keys()].sort((a, b) => b.length - a.length);
  const made = { re: new RegExp(forms.map(escapeRegExp).join('|'), 'g'), names };
  patterns.set(secrets, made);
  return made;
}

/**
 * Replaces every secret value in text by `<secret>NAME</secret>`, in one pass (a short value
 * never rewrites the marker of a long one), the longest value first where they overlap.
 */
export function redactText(text: string, secrets: Secrets): string {
  if (secrets.size === 0 || text === '') return text;
  const { re, names } = patternOf(secrets);
  return text.replace(re, (form) => `<secret>${names.get(form) ?? ''}</secret>`);
}

function redactValue(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redactText(k, secrets), redactValue(v, secrets)]),
    );
  }
  return value;
}

/** A result as the client will see it, with every secret value replaced by its name. */
export function redactResult(result: CallToolResult, secrets: Secrets): CallToolResult {
  if (secrets.size === 0) return result;
  return redactValue(result, secrets) as CallToolResult;
}

/** Walks `fields[].value`-style paths; replaces a string that names a secret by its value. */
function substitute(node: unknown, parts: readonly string[], secrets: Secrets): unknown {
  if (parts.length === 0)
    return typeof node === 'string' && secrets.has(node) ? secrets.get(node) : node;
  const [head = '', ...rest] = parts;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const record = node as Record<string, unknown>;
  if (head.endsWith('[]')) {
    const key = head.slice(0, -2);
    const list = record[key];
    if (!Array.isArray(list)) return node;
    return { ...record, [key]: list.map((item) => substitute(item, rest, secrets)) };
  }
  if (!(head in record)) return node;
  return { ...record, [head]: substitute(record[head], rest, secrets) };
}

/**
 * The arguments the browser gets: each of the contract's `secretArgs` that equals a secret's
 * name carries its value instead. The caller's own object is left as it was.
 */
export function withSecretValues(
  contract: ToolContract | undefined,
  args: Record<string, unknown>,
  secrets: Secrets,
): Record<string, unknown> {
  const paths = contract?.secretArgs;
  if (paths === undefined || secrets.size === 0) return args;
  let out: unknown = args;
  for (const p of paths) out = substitute(out, p.split('.'), secrets);
  return out as Record<string, unknown>;
}
