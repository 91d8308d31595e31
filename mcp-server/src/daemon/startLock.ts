import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { pidAlive } from '../shared/pidAlive.js';

/** A lock younger than this is a daemon still starting, even if its socket does not answer yet. */
const STARTING_GRACE_MS = 10_000;

/**
 * One daemon per state directory. Two servers that find no daemon at the same moment both spawn
 * one; without this, the loser could remove the socket file the winner had just bound and leave
 * it unreachable. Returns the release function, or undefined when another live daemon holds it.
 *
 * `onStale` (tests) runs after a lock was judged stale and before it is taken over: where another
 * daemon starting at the same moment may take it over first.
 */
export function takeStartLock(
  lockPath: string,
  socketAnswers: boolean,
  onStale?: () => void,
): (() => void) | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => releaseIfOurs(lockPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(lockPath);
      if (holder !== undefined && holderLives(holder, socketAnswers)) return undefined;
      // Left by a daemon that was killed: nobody serves this directory.
      onStale?.();
      if (holder !== undefined && !setAsideStale(lockPath, holder.text)) return undefined;
    }
  }
  return undefined;
}

/**
 * Moves a stale lock out of the way, unless another starter replaced it since it was read. Two
 * daemons spawned together after a crash (two servers found the socket dead) both judge the old
 * lock stale; removing it by name, the slower one removed the lock the faster one had just taken,
 * both started, and the one that lost the socket left the other on a fallback port with its
 * socket file deleted (a fault run in CI, session 19). A rename moves one file or fails: the lock
 * moved aside is read again, and a fresh one is put back (a link, which never overwrites) for its
 * owner, who is starting. False then; true when the stale lock is gone (or was already moved by
 * another starter, in which case the next `wx` decides between the two).
 */
function setAsideStale(lockPath: string, staleText: string): boolean {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true;
  }
  if (readHolder(aside)?.text === staleText) {
    rmSync(aside, { force: true });
    return true;
  }
  try {
    linkSync(aside, lockPath);
  } catch {
    // A third starter holds it by now; either way this one backs off.
  }
  rmSync(aside, { force: true });
  return false;
}

interface Holder {
  text: string;
  ageMs: number;
}

/**
 * Whether a daemon holds the lock now, by what takeStartLock would decide when no socket answers:
 * one starting (a young lock of a live pid). Then a daemon spawned now exits at once.
 */
export function startLockHeld(lockPath: string): boolean {
  const holder = readHolder(lockPath);
  return holder !== undefined && holderLives(holder, false);
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    return {
      text: readFileSync(lockPath, 'utf8').trim(),
      ageMs: Date.now() - statSync(lockPath).mtimeMs,
    };
  } catch {
    return undefined;
  }
}

function holderLives({ text, ageMs }: Holder, socketAnswers: boolean): boolean {
  const pid = Number(text);
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
