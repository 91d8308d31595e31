/**
 * Finding and stopping the processes a test started, through /proc (Linux only).
 * Every test gets its own scratch dir and BROWSER_AGENT_HOME, so a process is "ours" when its
 * environment carries that home or its command line names that dir.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessInfo {
  pid: number;
  cmdline: string;
}

/** Alive and not a zombie: a daemon reparented to a non-reaping PID 1 lingers as one. */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // Field 3 (state) follows the parenthesised command name, which may itself contain spaces.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Running processes whose environment has `name=value` exactly. */
export function processesWithEnv(name: string, value: string): ProcessInfo[] {
  const entry = `${name}=${value}`;
  return scan((pid) => readProc(pid, 'environ').split('\0').includes(entry));
}

/** Running processes whose command line mentions `fragment` (e.g. a profile dir). */
export function processesWithArg(fragment: string): ProcessInfo[] {
  return scan((pid) => readProc(pid, 'cmdline').includes(fragment));
}

function scan(matches: (pid: number) => boolean): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (matches(pid) && isRunning(pid)) {
        found.push({ pid, cmdline: readProc(pid, 'cmdline').replaceAll('\0', ' ').trim() });
      }
    } catch {
      // The process exited while we looked at it.
    }
  }
  return found;
}

function readProc(pid: number, file: 'environ' | 'cmdline'): string {
  return readFileSync(`/proc/${pid}/${file}`, 'utf8');
}

/** SIGTERM, then SIGKILL if it is still running after `graceMs`. Resolves once it is gone. */
export async function stopProcess(pid: number, graceMs = 5_000): Promise<void> {
  if (!signal(pid, 'SIGTERM')) return;
  if (await waitUntil(() => !isRunning(pid), graceMs)) return;
  signal(pid, 'SIGKILL');
  await waitUntil(() => !isRunning(pid), 2_000);
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** Polls `condition` every 50 ms; true when it held before `timeoutMs` ran out. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}
