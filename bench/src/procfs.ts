/**
 * Process facts from /proc (Linux only): memory, the process tree, and finding the processes a
 * run started by the state dir in their environment.
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

/** Alive and not a zombie (a daemon reparented to a non-reaping PID 1 can linger as one). */
export function isRunning(pid: number): boolean {
  const stat = read(pid, 'stat');
  if (stat === undefined) return false;
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

function parentOf(pid: number): number | undefined {
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
  const found: ProcessInfo[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    const environ = read(pid, 'environ');
    if (environ === undefined || !environ.split('\0').includes(entry) || !isRunning(pid)) continue;
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

/** SIGTERM, then SIGKILL after `graceMs`. Resolves once the process is gone. */
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
