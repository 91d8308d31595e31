/**
 * Doctor checks of this machine: Node, the browser launch mode would start, the packaged
 * extension, the state directory and its socket.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extensionDir, findBrowser } from '../../daemon/launch/browserSpawn.js';
import type { StatePaths } from '../../shared/paths.js';
import { manifestProblem } from '../extensionCommand.js';
import type { Check, DoctorOptions } from './check.js';

const MIN_NODE = [20, 19] as const;

export function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    id: 'node',
    status: ok ? 'ok' : 'fail',
    summary: `Node ${process.versions.node} (${process.execPath})`,
    fix: ok ? undefined : `Install Node ${MIN_NODE.join('.')} or newer.`,
  };
}

export async function browserCheck(options: DoctorOptions): Promise<Check> {
  const fromEnv = options.env['CHROME_PATH'];
  if (options.executablePath === undefined && fromEnv && !existsSync(fromEnv)) {
    return {
      id: 'browser',
      status: 'fail',
      summary: `No browser at CHROME_PATH=${fromEnv}: that file does not exist.`,
      fix: 'Point CHROME_PATH at your Chromium or Chrome binary (e.g. /usr/bin/chromium), or unset it to use the usual install paths.',
    };
  }
  let executable: string;
  try {
    executable = findBrowser(options.executablePath);
  } catch (err) {
    return {
      id: 'browser',
      status: 'fail',
      summary: (err as Error).message,
      fix: 'Install Chromium or Google Chrome, or set CHROME_PATH to its binary.',
    };
  }
  const version = await browserVersion(executable);
  return {
    id: 'browser',
    status: version === undefined ? 'warn' : 'ok',
    summary: `launch mode would start ${executable}${version ? ` (${version})` : ''}`,
    fix:
      version === undefined
        ? `${executable} did not answer --version; check that it runs (try it in a terminal).`
        : undefined,
    details: { executable, version },
  };
}

function browserVersion(executable: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(executable, ['--version'], { timeout: 10_000 }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}

export function extensionCheck(): Check {
  const dir = extensionDir();
  const problem = manifestProblem(dir);
  if (problem !== undefined) {
    return {
      id: 'extension-files',
      status: 'fail',
      summary: problem,
      fix: 'Reinstall the package (or run pnpm build in the workspace).',
    };
  }
  const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as { version: string };
  return {
    id: 'extension-files',
    status: 'ok',
    summary: `extension ${manifest.version} at ${dir} (for "Load unpacked" in your own Chrome)`,
    details: { dir, version: manifest.version },
  };
}

export function stateDirChecks(paths: StatePaths): Check[] {
  if (process.platform === 'win32' || !existsSync(paths.dir)) {
    return [
      {
        id: 'state-dir',
        status: 'info',
        summary: `state directory ${paths.dir} (not created yet)`,
      },
    ];
  }
  const checks: Check[] = [];
  const uid = process.getuid?.();
  const dir = statSync(paths.dir);
  const dirMode = (dir.mode & 0o777).toString(8);
  if (uid !== undefined && dir.uid !== uid) {
    checks.push({
      id: 'state-dir',
      status: 'fail',
      summary: `state directory ${paths.dir} belongs to uid ${dir.uid}, not to you (uid ${uid}).`,
      fix: `Remove ${paths.dir} (the daemon recreates it), or set BROWSER_AGENT_HOME to a directory of your own.`,
    });
  } else if ((dir.mode & 0o077) !== 0) {
    checks.push({
      id: 'state-dir',
      status: 'fail',
      summary: `state directory ${paths.dir} is open to other users (mode ${dirMode}); whoever reaches the socket can drive the browser.`,
      fix: `chmod 700 ${paths.dir}`,
    });
  } else {
    checks.push({
      id: 'state-dir',
      status: 'ok',
      summary: `state directory ${paths.dir} (mode ${dirMode})`,
    });
  }
  if (existsSync(paths.socket)) {
    const sock = statSync(paths.socket);
    const mode = (sock.mode & 0o777).toString(8);
    if (uid !== undefined && sock.uid !== uid) {
      checks.push({
        id: 'socket',
        status: 'fail',
        summary: `socket ${paths.socket} belongs to uid ${sock.uid}, not to you.`,
        fix: `Remove ${paths.socket}; the next MCP call starts your own daemon.`,
      });
    } else if ((sock.mode & 0o022) !== 0) {
      checks.push({
        id: 'socket',
        status: 'fail',
        summary: `socket ${paths.socket} is writable by other users (mode ${mode}).`,
        fix: `chmod 600 ${paths.socket} (or stop the daemon; it recreates the socket with safe permissions).`,
      });
    } else {
      checks.push({ id: 'socket', status: 'ok', summary: `socket ${paths.socket} (mode ${mode})` });
    }
  }
  return checks;
}
