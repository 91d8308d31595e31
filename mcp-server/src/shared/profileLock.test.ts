import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileLockedByRunningBrowser } from './profileLock.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function profileLockedAs(target: string | undefined): string {
  dir = mkdtempSync(path.join(tmpdir(), 'profile-lock-'));
  if (target !== undefined) symlinkSync(target, path.join(dir, 'SingletonLock'));
  return dir;
}

describe('profileLockedByRunningBrowser', () => {
  it('is true while the pid in the lock runs on this host', () => {
    expect(profileLockedByRunningBrowser(profileLockedAs(`${hostname()}-${process.pid}`))).toBe(
      true,
    );
  });

  it('is false without a lock, or for a lock a crashed browser left behind', () => {
    expect(profileLockedByRunningBrowser(profileLockedAs(undefined))).toBe(false);
    // Pids are below 2^22 on Linux; this one cannot be running.
    expect(profileLockedByRunningBrowser(profileLockedAs(`${hostname()}-99999999`))).toBe(false);
    expect(profileLockedByRunningBrowser(profileLockedAs(`${hostname()}-x`))).toBe(false);
  });
});
