/**
 * `browser-agent-mcp profiles list` and `profiles prune --older-than <n>d [--dry-run]`: the
 * project profiles this user's launched browsers have used, and removing the stale ones. A
 * profile whose project daemon is running is in use and never removed. The list also shows the
 * default profile, which prune leaves alone: every launch without a project shares it.
 * `--user-data-dir` profiles are the user's own directories and are not recorded.
 */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { statePaths } from '../shared/paths.js';
import { socketAnswers } from '../shared/socketAnswers.js';
import { projectDaemonPaths } from '../shared/projectDaemonPaths.js';
import { defaultProfileDir, PROJECT_PROFILE_DIRNAME } from '../shared/profiles.js';
import { profileLockedByRunningBrowser } from '../shared/profileLock.js';
import {
  forgetProfileRecord,
  profileRecordsDir,
  readProfileRecords,
  type ProfileRecord,
} from '../shared/profileRecords.js';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const PROFILES_USAGE = `Usage: browser-agent-mcp profiles list
       browser-agent-mcp profiles prune --older-than <age> [--dry-run]

<age> is a number and a unit: 30d, 12h, 90m, 45s.
`;

interface ProfileStatus {
  profile: string;
  lastUsed: Date;
  exists: boolean;
  inUse: boolean;
}

/** Runs the command; returns the exit code. Output goes to `out`, problems to `err`. */
export async function runProfilesCommand(
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  now: Date = new Date(),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { 'older-than': { type: 'string' }, 'dry-run': { type: 'boolean' } },
    });
  } catch (e) {
    err(
      `browser-agent-mcp profiles: ${e instanceof Error ? e.message : String(e)}\n\n${PROFILES_USAGE}`,
    );
    return 2;
  }
  const [command, ...extra] = parsed.positionals;
  if (extra.length > 0 || (command !== 'list' && command !== 'prune')) {
    err(PROFILES_USAGE);
    return 2;
  }
  const statuses = await projectProfileStatuses(env);
  if (command === 'list') {
    const shared = defaultProfileStatus(env);
    if (shared) out(`${describe(shared)}  (default profile)\n`);
    if (statuses.length === 0) out('No project profiles recorded.\n');
    for (const s of statuses) out(`${describe(s)}\n`);
    return 0;
  }
  const raw = parsed.values['older-than'];
  const ageMs = raw === undefined ? undefined : parseAge(raw);
  if (ageMs === undefined) {
    err(
      `browser-agent-mcp profiles prune: --older-than needs an age like 30d.\n\n${PROFILES_USAGE}`,
    );
    return 2;
  }
  const dryRun = parsed.values['dry-run'] ?? false;
  const cutoff = now.getTime() - ageMs;
  let removed = 0;
  for (const s of statuses) {
    if (s.inUse || (s.exists && s.lastUsed.getTime() >= cutoff)) continue;
    out(`${dryRun ? 'would remove' : 'removed'} ${describe(s)}\n`);
    removed++;
    if (!dryRun) remove(s.record, env);
  }
  out(`${removed} profile(s) ${dryRun ? 'would be ' : ''}removed.\n`);
  return 0;
}

/** "30d" → ms; undefined when it is not a number and a unit. */
export function parseAge(raw: string): number | undefined {
  const match = /^(\d+)([smhd])$/.exec(raw.trim());
  if (!match) return undefined;
  const [, n, unit] = match;
  return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

async function projectProfileStatuses(
  env: NodeJS.ProcessEnv,
): Promise<Array<ProfileStatus & { record: ProfileRecord }>> {
  const user = statePaths(env);
  return Promise.all(
    readProfileRecords(profileRecordsDir(env)).map(async (record) => ({
      record,
      profile: record.profile,
      lastUsed: lastUse(record.profile, new Date(record.lastUsedAt)),
      exists: mtimeOf(record.profile) !== undefined,
      inUse: await socketAnswers(projectDaemonPaths(user, record.project).socket),
    })),
  );
}

/**
 * The default profile has no record (its place is fixed) and no daemon of its own (the user's
 * daemon also serves the user's Chrome and other profiles), so Chromium's own lock tells its use.
 */
function defaultProfileStatus(env: NodeJS.ProcessEnv): ProfileStatus | undefined {
  const profile = defaultProfileDir(env);
  const created = mtimeOf(profile);
  if (created === undefined) return undefined;
  return {
    profile,
    lastUsed: lastUse(profile, created),
    exists: true,
    inUse: profileLockedByRunningBrowser(profile),
  };
}

/** Chromium rewrites "Local State" whenever it exits, so it dates the last real use. */
function lastUse(profile: string, known: Date): Date {
  const localState = mtimeOf(path.join(profile, 'Local State'));
  return localState && localState > known ? localState : known;
}

function describe(s: ProfileStatus): string {
  const state = s.inUse ? 'in use' : s.exists ? 'idle' : 'missing';
  return `${s.lastUsed.toISOString()}  ${state.padEnd(7)}  ${s.profile}`;
}

function remove(record: ProfileRecord, env: NodeJS.ProcessEnv): void {
  // A record is only a file in the user's own directory, but deleting a tree is not undoable:
  // never remove anything but a profile directory of ours.
  if (path.basename(record.profile) === PROJECT_PROFILE_DIRNAME) {
    rmSync(record.profile, { recursive: true, force: true });
  }
  rmSync(projectDaemonPaths(statePaths(env), record.project).dir, { recursive: true, force: true });
  forgetProfileRecord(profileRecordsDir(env), record.project);
}

function mtimeOf(file: string): Date | undefined {
  try {
    return statSync(file).mtime;
  } catch {
    return undefined;
  }
}
