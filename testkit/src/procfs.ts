/**
 * Process facts from /proc (Linux only): finding the processes a test or a bench run started,
 * stopping them, their memory and their process tree. Every run gets its own scratch dir and
 * BROWSER_AGENT_HOME (scratch.ts), so a process is "ours" when its environment carries that home
 * or its command line names that dir.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessInfo {
  pid: number;
  cmdline: string;
}

function read(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie: a daemon reparented to a non-reaping PID 1 lingers as one. */
export function isRunning(pid: number): boolean {
  const stat = read(pid, 'stat');
  if (stat === undefined) return false;
  // Field 3 (state) follows the parenthesised command name, which may itself contain spaces.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** VmRSS in MiB, or undefined when the process is gone. */
export function rssMiB(pid: number): number | undefined {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(read(pid, 'status') ?? '')?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Proportional set size in MiB: shared pages split among sharers, so a tree's sum is honest. */
export function pssMiB(pid: number): number | undefined {
  const kb = /^Pss:\s+(\d+) kB/m.exec(read(pid, 'smaps_rollup') ?? '')?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** The parent's pid, or undefined when the process is gone. */
export function parentOf(pid: number): number | undefined {
  const stat = read(pid, 'stat');
  if (stat === undefined) return undefined;
  const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  return ppid === undefined ? undefined : Number(ppid);
}

function allPids(): number[] {
  return readdirSync('/proc')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** The process and all its running descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (!isRunning(pid)) continue;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Running processes (other than this one) whose environment has `name=value` exactly. */
export function processesWithEnv(name: string, value: string): ProcessInfo[] {
  const entry = `${name}=${value}`;
  return scan((pid) => read(pid, 'environ')?.split('\0').includes(entry) === true);
}

/** Running processes (other than this one) whose command line mentions `fragment` (e.g. a profile dir). */
export function processesWithArg(fragment: string): ProcessInfo[] {
  return scan((pid) => read(pid, 'cmdline')?.includes(fragment) === true);
}

function scan(matches: (pid: number) => boolean): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid || !matches(pid) || !isRunning(pid)) continue;
    found.push({ pid, cmdline: (read(pid, 'cmdline') ?? '').replaceAll('\0', ' ').trim() });
  }
  return found;
}

/** Polls every 50 ms; true when `condition` held before `timeoutMs` ran out. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

/** SIGTERM, then SIGKILL if it is still running after `graceMs`. Resolves once it is gone. */
export async function stopProcess(pid: number, graceMs = 5_000): Promise<void> {
  if (!signal(pid, 'SIGTERM')) return;
  if (await waitUntil(() => !isRunning(pid), graceMs)) return;
  signal(pid, 'SIGKILL');
  await waitUntil(() => !isRunning(pid), 2_000);
}

/**
 * What a run leaves behind: exiting children (a browser's helpers) get `graceMs` to go before
 * they count as leftovers; those still running are stopped and returned, for the caller to report.
 */
export async function stopLeftovers(
  own: () => ProcessInfo[],
  graceMs: number,
): Promise<ProcessInfo[]> {
  await waitUntil(() => own().length === 0, graceMs);
  const leftovers = own();
  for (const p of leftovers) await stopProcess(p.pid, 1_000);
  return leftovers;
}

/** Sends `name` to the process group led by `pid` (a child spawned `detached`): it and its helpers. */
export function signalGroup(pid: number, name: NodeJS.Signals): void {
  signal(-pid, name);
}

/** Sends `name` to `pid`; false when there is no such process (any more). */
export function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}
