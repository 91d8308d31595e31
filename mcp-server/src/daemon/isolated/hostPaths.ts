/**
 * Where the isolated host for a set of launch options lives: `<state dir>/projects/<key>/`, as a
 * project's daemon does (so `doctor`, the e2e harness and a kill of every daemon find it too),
 * keyed by the executable, headless or not, and the extra flags: sessions that differ in any of
 * these cannot share a browser.
 */
import { statePaths, type StatePaths } from '../../shared/paths.js';
import { projectDaemonPaths } from '../../shared/projectDaemonPaths.js';
import type { HostLaunch } from './hostFrames.js';

export function hostPaths(launch: HostLaunch, env: NodeJS.ProcessEnv = process.env): StatePaths {
  return projectDaemonPaths(
    statePaths(env),
    `isolated-host:${JSON.stringify([launch.executable, launch.headless, launch.args])}`,
  );
}
