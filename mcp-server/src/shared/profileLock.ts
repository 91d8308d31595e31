/**
 * Whether a Chromium is running on a profile, from the profile itself: while it runs, Chromium
 * on Linux and macOS keeps a `SingletonLock` symlink in the profile pointing at
 * `<hostname>-<pid>` (chrome/browser/process_singleton_posix.cc). A lock left by a crash names a
 * pid that is gone, so the pid is checked too. Used for profiles no daemon of ours answers for.
 */
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { pidAlive } from './pidAlive.js';

export function profileLockedByRunningBrowser(profile: string): boolean {
  let target: string;
  try {
    target = readlinkSync(path.join(profile, 'SingletonLock'));
  } catch {
    return false;
  }
  const dash = target.lastIndexOf('-');
  const host = target.slice(0, dash);
  const pid = Number(target.slice(dash + 1));
  // Another host's lock (a profile on a shared disk) cannot be checked from here: trust it.
  if (host !== hostname()) return dash > 0;
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid);
}
