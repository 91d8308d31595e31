/**
 * A small record per project profile, so `browser-agent-mcp profiles list|prune` can find
 * profiles that live inside project directories. Kept in a persistent directory (the state dir
 * may be a tmpfs that is emptied at logout): BROWSER_AGENT_HOME/profiles when set, else
 * the user's cache directory.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { projectKey } from './projectDaemonPaths.js';
import { userCacheDir } from './profiles.js';

const recordSchema = z.object({
  project: z.string(),
  profile: z.string(),
  lastUsedAt: z.string(),
});
export type ProfileRecord = z.infer<typeof recordSchema>;

export function profileRecordsDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['BROWSER_AGENT_HOME'];
  return home ? path.join(home, 'profiles') : path.join(userCacheDir(env), 'profiles');
}

/** Notes that the project's profile is in use now. */
export function recordProfileUse(
  dir: string,
  project: string,
  profile: string,
  now: Date = new Date(),
): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record: ProfileRecord = { project, profile, lastUsedAt: now.toISOString() };
  writeFileSync(recordFile(dir, project), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

export function readProfileRecords(dir: string): ProfileRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const records: ProfileRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const parsed = recordSchema.safeParse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
      if (parsed.success) records.push(parsed.data);
    } catch {
      // A half-written or foreign file is not a record.
    }
  }
  return records;
}

export function forgetProfileRecord(dir: string, project: string): void {
  rmSync(recordFile(dir, project), { force: true });
}

function recordFile(dir: string, project: string): string {
  return path.join(dir, `${projectKey(project)}.json`);
}
