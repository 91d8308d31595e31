/**
 * One run's private world: a scratch dir, its own BROWSER_AGENT_HOME (daemon.sock, daemon.pid,
 * daemon.log), its own bridge port, and TMPDIR inside the scratch dir so a temporary profile
 * lands there too; the bridge's sessions share one profile in the scratch dir (and so one browser). Teardown closes the clients, stops the daemon by the pid in daemon.pid (it
 * kills its Chromium), and reports any process still carrying this home as a leak.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { progress } from './log.js';
import { RESULTS_DIR } from './paths.js';
import { BenchClient, LAUNCH_FLAGS } from './mcp/benchClient.js';
import { processesWithEnv, stopProcess, waitUntil, type ProcessInfo } from './procfs.js';

/** A backstop only: teardown stops the daemon, but a leaked one still exits on its own. */
const DAEMON_IDLE_EXIT_MS = 30_000;
const EXIT_GRACE_MS = 5_000;

export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly port: number;
  /** The environment every process of this run gets. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * An MCP client on its own server child: the bridge's `browser-agent-mcp`, or `script` (another
   * Node MCP server) started with `flags`. Either way it carries this run's env, so teardown
   * closes it and its processes count as leftovers if they outlive it.
   */
  spawnClient(
    name: string,
    options?: { flags?: readonly string[]; env?: Record<string, string>; script?: string },
  ): Promise<BenchClient>;
  /** The pid in daemon.pid, once the daemon wrote it. */
  daemonPid(): Promise<number | undefined>;
  /** Every running process that carries this run's home in its environment. */
  ownProcesses(): ProcessInfo[];
  /** A step run after the daemon stops, before the leftover check (e.g. a browser the bench started). */
  onTeardown(step: () => Promise<void>): void;
  /** Stops everything; returns the processes that had to be killed as leftovers. */
  teardown(): Promise<ProcessInfo[]>;
}

/** Logs worth keeping after a run: in the state dir, and the soak browser's in the scratch dir. */
const KEPT_LOGS = ['home/daemon.log', 'home/chromium.log', 'chromium.log', 'trace.jsonl'];

/** `label` names the folder under bench-results/ that keeps the run's logs (replaced each run). */
export async function createSandbox(label: string): Promise<Sandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ba-bench-'));
  const home = path.join(root, 'home');
  const tmpDir = path.join(root, 'tmp');
  // The daemon refuses a state dir others can read.
  await Promise.all([mkdir(home, { mode: 0o700 }), mkdir(tmpDir)]);
  const port = await freePort();
  const env: Record<string, string> = {
    ...definedEnv(),
    BROWSER_AGENT_HOME: home,
    BROWSER_AGENT_PORT: String(port),
    BROWSER_AGENT_IDLE_EXIT_MS: String(DAEMON_IDLE_EXIT_MS),
    TMPDIR: tmpDir,
  };
  const clients: BenchClient[] = [];
  const steps: Array<() => Promise<void>> = [];
  const daemonPid = () => readPid(path.join(home, 'daemon.pid'));
  const ownProcesses = () => processesWithEnv('BROWSER_AGENT_HOME', home);
  let torn: Promise<ProcessInfo[]> | undefined;

  return {
    root,
    home,
    port,
    env,
    async spawnClient(name, options = {}) {
      const clientEnv = { ...env, ...options.env };
      const client =
        options.script === undefined
          ? await BenchClient.spawn(
              name,
              clientEnv,
              options.flags ?? [...LAUNCH_FLAGS, '--user-data-dir', path.join(root, 'profile')],
            )
          : await BenchClient.spawnScript(name, options.script, options.flags ?? [], clientEnv);
      clients.push(client);
      return client;
    },
    daemonPid,
    ownProcesses,
    onTeardown(step) {
      steps.push(step);
    },
    teardown() {
      torn ??= (async () => {
        progress('teardown: closing clients');
        // A closed client's pid may belong to another process by now: leave it alone.
        const open = clients.filter((c) => !c.closed);
        await Promise.all(open.map((c) => c.close()));
        await Promise.all(open.map((c) => stopProcess(c.pid, EXIT_GRACE_MS)));
        const daemon = await daemonPid();
        progress(`teardown: stopping daemon ${daemon ?? '(none)'}`);
        if (daemon !== undefined) await stopProcess(daemon, EXIT_GRACE_MS);
        for (const step of steps) await step();
        progress('teardown: checking for leftovers');
        // Exiting children (a browser's helpers) get a moment before they count as leftovers.
        await waitUntil(() => ownProcesses().length === 0, EXIT_GRACE_MS);
        const leftovers = ownProcesses();
        for (const p of leftovers) await stopProcess(p.pid, 1_000);
        await keepLogs(root, path.join(RESULTS_DIR, label));
        await rm(root, { recursive: true, force: true });
        progress(`teardown: done; logs in ${path.join(RESULTS_DIR, label)}`);
        return leftovers;
      })();
      return torn;
    },
  };
}

async function keepLogs(root: string, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const log of KEPT_LOGS) {
    await copyFile(path.join(root, log), path.join(dir, log.replaceAll('/', '-'))).catch(
      () => undefined,
    );
  }
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function definedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No TCP port was assigned.');
  return address.port;
}
