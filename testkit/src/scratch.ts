/**
 * A run's private world, for an e2e test or a bench run alike: a scratch dir, its own
 * BROWSER_AGENT_HOME (daemon.sock, daemon.pid, daemon.log), its own bridge port, and TMPDIR
 * inside the scratch dir, so whatever the server, the daemon or a launched browser puts in a
 * temp dir (an --isolated profile) lands there too. Stopping what runs in it is the caller's part
 * (procfs.ts has the tools).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Scratch {
  /** The scratch dir: home, profiles and TMPDIR of everything the run starts. */
  readonly root: string;
  /** BROWSER_AGENT_HOME. */
  readonly home: string;
  /** The daemon's WebSocket port for the extension (BROWSER_AGENT_PORT). */
  readonly port: number;
  /**
   * This process's environment plus the run's home, port, idle exit and TMPDIR: every process of
   * the run gets it.
   */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * `prefix` names the scratch dir under the system temp dir; `idleExitMs` is the daemon's idle
 * exit, a backstop only: the caller stops the daemon, but a leaked one still goes away on its own.
 */
export async function createScratch(prefix: string, idleExitMs: number): Promise<Scratch> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const tmpDir = path.join(root, 'tmp');
  // The daemon wants a state dir only its user can read.
  await Promise.all([mkdir(home, { mode: 0o700 }), mkdir(tmpDir)]);
  const port = await freePort();
  const env: Record<string, string> = {
    ...definedEnv(),
    BROWSER_AGENT_HOME: home,
    BROWSER_AGENT_PORT: String(port),
    BROWSER_AGENT_IDLE_EXIT_MS: String(idleExitMs),
    TMPDIR: tmpDir,
  };
  return { root, home, port, env };
}

/** The pid in a daemon.pid file, if there is one. */
export async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Ports in that range Chrome never connects to (its restricted ports, ERR_UNSAFE_PORT): a relay
 * page told to reach the daemon there fails every attempt (CI drew 10080 once).
 */
export const BROWSER_REFUSED_PORTS: ReadonlySet<number> = new Set([10_080]);

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, taken from below the kernel's ephemeral
 * range. A port from `listen(0)` comes out of that range, so between its release and the daemon's
 * bind the kernel could hand it to any outgoing connection of the run (a browser's, a client's) as
 * its local port: CI saw a daemon find its port taken that way. Below the range only an explicit
 * bind takes a port, and the draw is random, so two tests meet on one only by chance.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow) - 1;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (BROWSER_REFUSED_PORTS.has(port)) continue;
    if (await bindable(port)) return port;
  }
  throw new Error(`No free TCP port between ${low} and ${high} after 50 tries.`);
}

/** The kernel's ephemeral port range (Linux's /proc, else the IANA range). */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low as number, high as number];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49_152, 65_535];
}

async function bindable(port: number): Promise<boolean> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

function definedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
