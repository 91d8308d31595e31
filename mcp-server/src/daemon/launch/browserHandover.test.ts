/**
 * The browser a daemon owns through the pipe its server handed over (browserHandover.ts): it has
 * ended only once the pipe closed and its pid is gone, so stopBrowser never signals a pid that
 * may be another process's by then, and never takes a dying browser for gone.
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pidAlive } from '../../shared/pidAlive.js';
import { handedBrowser } from './browserHandover.js';
import { stopBrowser } from './browserSpawn.js';

/** A stand-in browser running `script`, with a debugging pipe on its fds 3 and 4. */
function standIn(script: string): { pid: number; toBrowser: Writable; fromBrowser: Readable } {
  const child = spawn('sh', ['-c', script], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const [, , , toBrowser, fromBrowser] = child.stdio;
  if (
    child.pid === undefined ||
    !(toBrowser instanceof Writable) ||
    !(fromBrowser instanceof Readable)
  )
    throw new Error('stand-in did not start');
  return { pid: child.pid, toBrowser, fromBrowser };
}

describe('a browser handed over with its pipe', () => {
  it('runs until its pid is gone, not only until its pipe closes', async () => {
    // Closes its pipe at once, as a browser shutting down does, and exits 400 ms later.
    const s = standIn('exec 3>&- 4>&-; sleep 0.4');
    const browser = handedBrowser(s.pid, s.toBrowser, s.fromBrowser);
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 150));
    expect(pidAlive(s.pid)).toBe(true);
    expect(browser.running()).toBe(true);
    await browser.exited;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(browser.running()).toBe(false);
  });

  it('is stopped by its group when it does not close on Browser.close, then counts as ended', async () => {
    const s = standIn('sleep 30');
    const browser = handedBrowser(s.pid, s.toBrowser, s.fromBrowser);
    await stopBrowser(browser, 100);
    expect(browser.running()).toBe(false);
    // Dead by now; the pid goes once Node, its parent here, has reaped it.
    const deadline = Date.now() + 500;
    while (pidAlive(s.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(pidAlive(s.pid)).toBe(false);
  });

  it('fails the calls waiting on it when its pipe closes', async () => {
    const s = standIn('sleep 0.2');
    const browser = handedBrowser(s.pid, s.toBrowser, s.fromBrowser);
    await expect(browser.cdp.send('Browser.getVersion')).rejects.toThrow(
      /closed its debugging pipe/,
    );
    await browser.exited;
  });
});
