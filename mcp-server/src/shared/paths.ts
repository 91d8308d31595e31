import { mkdirSync, statSync, chmodSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StatePaths {
  dir: string;
  socket: string;
  pidFile: string;
  logFile: string;
}

/**
 * Per-user state directory: BROWSER_AGENT_HOME, else $XDG_RUNTIME_DIR/browser-agent, else
 * ~/.cache/browser-agent. Kept short because a Unix socket path is limited to ~104 bytes.
 */
export function statePaths(env: NodeJS.ProcessEnv = process.env): StatePaths {
  const dir =
    env['BROWSER_AGENT_HOME'] ??
    (env['XDG_RUNTIME_DIR']
      ? join(env['XDG_RUNTIME_DIR'], 'browser-agent')
      : join(homedir() || tmpdir(), '.cache', 'browser-agent'));
  const socket =
    process.platform === 'win32'
      ? `\\\\.\\pipe\\browser-agent-${(env['USERNAME'] ?? 'user').replace(/[^\w-]/g, '')}`
      : join(dir, 'daemon.sock');
  return { dir, socket, pidFile: join(dir, 'daemon.pid'), logFile: join(dir, 'daemon.log') };
}

/**
 * Creates the state directory 0700 and refuses one owned by another user or open to others:
 * whoever can reach the socket can drive the browser.
 */
export function ensureStateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new Error(
      `State directory ${dir} belongs to uid ${st.uid}, not to you (uid ${uid}). Remove it or set BROWSER_AGENT_HOME.`,
    );
  }
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
