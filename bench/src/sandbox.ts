/**
 * One run's private world (testkit's scratch: dir, BROWSER_AGENT_HOME, bridge port, TMPDIR) and
 * the clients started in it; the bridge's sessions share one profile in the scratch dir (and so
 * one browser). Teardown closes the clients, stops the daemon by the pid in daemon.pid (it
 * kills its Chromium), and reports any process still carrying this home as a leak.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { progress } from './log.js';
import { RESULTS_DIR } from './paths.js';
import { BenchClient, LAUNCH_FLAGS } from './mcp/benchClient.js';
import { createScratch, readPid, type Scratch } from '@browser-agent/testkit/scratch';
import {
  processesWithEnv,
  stopLeftovers,
  stopProcess,
  type ProcessInfo,
} from '@browser-agent/testkit/procfs';

/** A backstop only: teardown stops the daemon, but a leaked one still exits on its own. */
const DAEMON_IDLE_EXIT_MS = 30_000;
const EXIT_GRACE_MS = 5_000;

export interface Sandbox extends Scratch {
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
  const { root, home, port, env } = await createScratch('ba-bench-', DAEMON_IDLE_EXIT_MS);
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
        const leftovers = await stopLeftovers(ownProcesses, EXIT_GRACE_MS);
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
