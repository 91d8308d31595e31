/**
 * Helpers for the launch-mode project specs: which browsers run on which profile, and stopping
 * daemons between two runs of one test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, projectDaemonPids, type Sandbox } from './harness.js';
import { CHROME_PATH, SERVER_BIN } from '@browser-agent/testkit/workspace';
import { signal, waitUntil } from '@browser-agent/testkit/procfs';

export const PROFILE_DIRNAME = '.user-session-data-directory';
export const LAUNCH = ['--launch', '--headless', '--executable-path', CHROME_PATH];

/** A fresh project directory in the test's scratch dir, with the given .gitignore (if any). */
export async function makeProject(
  sandbox: Sandbox,
  name: string,
  gitignore?: string,
): Promise<string> {
  const dir = path.join(sandbox.root, name);
  await mkdir(dir);
  if (gitignore !== undefined) await writeFile(path.join(dir, '.gitignore'), gitignore);
  return dir;
}

/** The --user-data-dir of every launched browser's main process of this test. */
export function launchedProfiles(sandbox: Sandbox): string[] {
  return sandbox
    .ownProcesses()
    .filter((p) => /chrom/i.test(p.cmdline) && !p.cmdline.includes('--type='))
    .map((p) => /--user-data-dir=(\S+)/.exec(p.cmdline)?.[1])
    .filter((dir) => dir !== undefined);
}

/** SIGTERM to every daemon of the test (the user's and each project's); waits for the browsers. */
export async function stopDaemons(sandbox: Sandbox): Promise<void> {
  const pids = [...(await projectDaemonPids(sandbox.home))];
  const main = await sandbox.daemonPid();
  if (main !== undefined) pids.push(main);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const gone = await waitUntil(() => sandbox.ownProcesses().length === 0, 15_000);
  expect(
    gone,
    `still running after SIGTERM to the daemons:\n${sandbox
      .ownProcesses()
      .map((p) => `  ${p.pid} ${p.cmdline}`)
      .join('\n')}`,
  ).toBe(true);
}

export function profileExists(project: string): boolean {
  return existsSync(path.join(project, PROFILE_DIRNAME));
}

/** Runs the bin once, outside MCP (a refused flag, or the profiles command). */
export function runBin(
  sandbox: Sandbox,
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SERVER_BIN, ...args], {
    env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home, ...env },
    encoding: 'utf8',
    input: '',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
