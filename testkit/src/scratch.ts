/**
 * A run's private world, for an e2e test or a bench run alike: a scratch dir, its own
 * BROWSER_AGENT_HOME (daemon.sock, daemon.pid, daemon.log), its own bridge port, and TMPDIR
 * inside the scratch dir, so whatever the server, the daemon or a launched browser puts in a
 * temp dir (an --isolated profile) lands there too. Stopping what runs in it is the caller's part
 * (procfs.ts has the tools).
 */
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

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No TCP port was assigned.');
  return address.port;
}

function definedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
