/**
 * The admin file (issue #19): site lists an administrator sets for every agent on this machine,
 * which the user cannot loosen from the side panel. The server sends them with its session
 * (SessionSettings.adminSites); the extension refuses a state-changing call on a blocked site,
 * or one outside the allow list, with BLOCKED_URL, and shows the lists in the panel read-only.
 *
 * Read from the system file of the platform (ADMIN_POLICY_PATHS) and, in addition, from the
 * file `BROWSER_AGENT_ADMIN_POLICY` names. The variable can only add restrictions: both files'
 * blocks apply, and a site must be on every allow list that is set. Content:
 *   { "allowSites": ["intranet.example.com"], "blockSites": ["bank.example.com"] }
 * A file that exists but cannot be read or parsed stops the server (ConfigError): an admin's
 * policy must never be skipped silently.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AdminSites } from '@browser-agent/protocol';
import { ConfigError } from './configFile.js';

/** The system-wide file per platform: writable by an administrator only. */
export const ADMIN_POLICY_PATHS: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  linux: '/etc/browser-agent/policy.json',
  darwin: '/Library/Application Support/BrowserAgent/policy.json',
  win32: 'C:\\ProgramData\\BrowserAgent\\policy.json',
};

const sites = z.array(z.string().min(1).max(300)).max(500);
const fileSchema = z.strictObject({
  allowSites: sites.optional(),
  blockSites: sites.optional(),
});

export function readAdminSites(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): AdminSites | undefined {
  const paths = [ADMIN_POLICY_PATHS[platform], env['BROWSER_AGENT_ADMIN_POLICY'] || undefined];
  const found = paths.flatMap((p) => (p === undefined ? [] : readOne(p)));
  if (found.length === 0) return undefined;
  const blocks = found.flatMap((f) => f.blockSites ?? []);
  const allowLists = found.flatMap((f) => (f.allowSites === undefined ? [] : [f.allowSites]));
  // Every allow list must allow a site: keep the entries all of them name (or the one list).
  const [first, ...others] = allowLists;
  const allow = first?.filter((entry) => others.every((list) => list.includes(entry)));
  return {
    ...(allow !== undefined ? { allow } : {}),
    ...(blocks.length > 0 ? { block: [...new Set(blocks)] } : {}),
    source: found.map((f) => f.path).join(' and '),
  };
}

function readOne(file: string): Array<z.infer<typeof fileSchema> & { path: string }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`admin policy ${file}: cannot be read (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`admin policy ${file}: not valid JSON; ask your administrator to fix it`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `admin policy ${file}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}; expected { "allowSites": [...], "blockSites": [...] }`,
    );
  }
  return [{ ...parsed.data, path: file }];
}
