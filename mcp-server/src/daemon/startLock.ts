import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { pidAlive } from '../shared/pidAlive.js';

/** A lock younger than this is a daemon still starting, even if its socket does not answer yet. */
const STARTING_GRACE_MS = 10_000;

/**
 * One daemon per state directory. Two servers that find no daemon at the same moment both spawn
 * one; without this, the loser could remove the socket file the winner had just bound and leave
 * it unreachable. Returns the release function, or undefined when another live daemon holds it.
 */
export function takeStartLock(lockPath: string, socketAnswers: boolean): (() => void) | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => releaseIfOurs(lockPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (holderLives(lockPath, socketAnswers)) return undefined;
      // Left by a daemon that was killed: nobody serves this directory.
      rmSync(lockPath, { force: true });
    }
  }
  return undefined;
}

function holderLives(lockPath: string, socketAnswers: boolean): boolean {
  let pid: number;
  let ageMs: number;
  try {
    pid = Number(readFileSync(lockPath, 'utf8').trim());
    ageMs = Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return false;
  }
  // A pid can be reused after a SIGKILL, so a live pid alone proves little once the lock is old.
  if (!socketAnswers && ageMs > STARTING_GRACE_MS) return false;
  if (!Number.isInteger(pid) || pid <= 0) return ageMs <= STARTING_GRACE_MS;
  return pidAlive(pid);
}

function releaseIfOurs(lockPath: string): void {
  try {
    if (readFileSync(lockPath, 'utf8').trim() === String(process.pid))
      rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}

/** Removes the pid file a process wrote at start, unless another process's pid is in it by now. */
export function removeOwnPidFile(pidFile: string): void {
  try {
    if (readFileSync(pidFile, 'utf8').trim() === String(process.pid))
      rmSync(pidFile, { force: true });
  } catch {
    // No pid file to remove.
  }
}
