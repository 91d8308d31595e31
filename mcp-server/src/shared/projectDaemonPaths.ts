/**
 * Where the daemon of one project lives. In launch mode every project gets its own daemon (and
 * so its own browser on its own profile): `<state dir>/projects/<key>/`, keyed by a hash of the
 * project's real path. A Unix socket path is limited to ~104 bytes, so when the state dir is
 * too deep the socket moves to a short per-user directory under the temp dir.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StatePaths } from './paths.js';

/** sun_path is 104 bytes on macOS and 108 on Linux, counting the final NUL. */
const MAX_SOCKET_PATH_BYTES = 100;

export function projectKey(project: string): string {
  return createHash('sha256').update(project).digest('hex').slice(0, 16);
}

export function projectDaemonPaths(user: StatePaths, project: string): StatePaths {
  const key = projectKey(project);
  const dir = path.join(user.dir, 'projects', key);
  return {
    dir,
    socket: socketPath(dir, key, user.socket),
    pidFile: path.join(dir, 'daemon.pid'),
    logFile: path.join(dir, 'daemon.log'),
  };
}

function socketPath(dir: string, key: string, userSocket: string): string {
  if (process.platform === 'win32') return `${userSocket}-${key}`;
  const inDir = path.join(dir, 'daemon.sock');
  if (Buffer.byteLength(inDir) <= MAX_SOCKET_PATH_BYTES) return inDir;
  const uid = process.getuid?.() ?? 0;
  return path.join(tmpdir(), `browser-agent-${uid}`, `${key}.sock`);
}
