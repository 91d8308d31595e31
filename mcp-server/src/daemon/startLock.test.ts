import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLockHeld, takeStartLock } from './startLock.js';

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'ba-lock-')), 'daemon.pid.lock');
}

/** A pid no process has: above the kernel's usual pid_max. */
const DEAD_PID = 2 ** 22 + 12_345;

describe('takeStartLock', () => {
  it('is taken once: a second daemon starting beside a live one backs off', () => {
    const path = lockPath();
    const release = takeStartLock(path, false);
    expect(release).toBeTypeOf('function');
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
    expect(takeStartLock(path, false)).toBeUndefined();
    release?.();
    expect(existsSync(path)).toBe(false);
    expect(takeStartLock(path, false)).toBeTypeOf('function');
  });

  it("takes over a killed daemon's lock", () => {
    const path = lockPath();
    writeFileSync(path, String(DEAD_PID));
    expect(takeStartLock(path, false)).toBeTypeOf('function');
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
  });

  it('takes over an old lock whose socket does not answer (its pid may have been reused)', () => {
    const path = lockPath();
    writeFileSync(path, String(process.pid));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(takeStartLock(path, false)).toBeTypeOf('function');
    writeFileSync(path, String(process.pid));
    utimesSync(path, old, old);
    expect(takeStartLock(path, true), 'a live holder that answers keeps it').toBeUndefined();
  });

  it('leaves a stale lock to the starter that took it over first (two daemons after a crash)', () => {
    const path = lockPath();
    writeFileSync(path, String(DEAD_PID));
    // Both judged the killed daemon's lock stale; the other starter replaced it first.
    const other = String(process.ppid);
    const ours = takeStartLock(path, false, () => {
      rmSync(path);
      writeFileSync(path, other);
    });
    expect(ours, 'this one backs off').toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(other);
    expect(readdirSync(dirname(path)), 'nothing set aside is left').toEqual(['daemon.pid.lock']);
  });

  it('takes a stale lock another starter moved aside before it made its own, and only once', () => {
    const path = lockPath();
    writeFileSync(path, String(DEAD_PID));
    const ours = takeStartLock(path, false, () => rmSync(path));
    expect(ours).toBeTypeOf('function');
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
    // The other starter, trying its own lock now, finds this live one.
    expect(takeStartLock(path, false)).toBeUndefined();
  });
});

describe('startLockHeld (whether a server starts a browser for the daemon it spawns)', () => {
  it('is true while a live daemon holds a young lock, false for none, a dead holder or an old lock', () => {
    const path = lockPath();
    expect(startLockHeld(path)).toBe(false);
    const release = takeStartLock(path, false);
    expect(startLockHeld(path)).toBe(true);
    release?.();
    expect(startLockHeld(path)).toBe(false);
    writeFileSync(path, String(DEAD_PID));
    expect(startLockHeld(path)).toBe(false);
    // Old and no socket answers: the next daemon takes it over, so its browser is wanted.
    writeFileSync(path, String(process.pid));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(startLockHeld(path)).toBe(false);
  });
});
