/**
 * `--secrets <dotenv file>` (config key `secrets`): values the agent types by name and never
 * sees. Playwright MCP's convention, kept so its users' prompts work unchanged:
 *   - an argument that a contract names in `secretArgs` (browser_type's text, browser_fill_form's
 *     values) and that equals a secret's NAME is replaced by its value on the way to the browser;
 *   - every occurrence of a secret's VALUE, in any of its encodings, in any result (text,
 *     structured content, errors) and in every file the server writes from one (console logs,
 *     saved snapshots and bodies, the session log) is replaced by `<secret>NAME</secret>` on the
 *     way back, whichever tool produced it.
 * Screenshots and PDFs cannot be rewritten here: the page model hides secret fields and any value
 * shown as page text while they are taken (secretPrints below).
 */
import { createHash, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  redactForms,
  replaceAtPaths,
  secretPattern,
  secretPrintsOf,
  type SecretPattern,
  type SecretPrints,
  type ToolContract,
} from '@browser-agent/protocol';
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

const patterns = new WeakMap<Secrets, SecretPattern>();

function patternOf(secrets: Secrets): SecretPattern {
  const known = patterns.get(secrets);
  if (known !== undefined) return known;
  const made = secretPattern(secrets);
  patterns.set(secrets, made);
  return made;
}

/**
 * Replaces every secret value in text by `<secret>NAME</secret>`, in every form a page may send
 * it out in (protocol secretForms.ts: raw, JSON, URL, form and HTML encodings), in one pass.
 */
export function redactText(text: string, secrets: Secrets): string {
  if (secrets.size === 0 || text === '') return text;
  return redactForms(text, patternOf(secrets), (name) => `<secret>${name}</secret>`);
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
  return replaceAtPaths(args, paths, (value) =>
    typeof value === 'string' && secrets.has(value) ? secrets.get(value) : value,
  ) as Record<string, unknown>;
}

/**
 * What the extension learns of the secrets: each value's SHA-256, so a question about typing one
 * can mask it (approvals/questionTarget.ts) without the value travelling anywhere new.
 */
export function secretDigests(secrets: Secrets): string[] {
  return [...secrets.values()].map((v) => createHash('sha256').update(v, 'utf8').digest('hex'));
}

/**
 * Rolling prints of the values under two bases picked at random here, so the page model can find
 * a value shown as page text and keep it out of screenshots and PDFs (protocol secretPrints.ts).
 */
export function secretPrints(secrets: Secrets): SecretPrints {
  return secretPrintsOf(secrets.values(), [randomInt(256, 2 ** 22), randomInt(256, 2 ** 22)]);
}
