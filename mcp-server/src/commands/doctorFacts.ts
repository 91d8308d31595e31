/**
 * The facts `browser-agent-mcp doctor` reports, one check per part of the chain: Node, the
 * browser that launch mode would start, the packaged extension, the state directory and socket,
 * the daemon, the bridge port, the extension link, pairing, sessions and the daemon's last
 * errors. A failed check carries the one thing to do next.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { DEFAULT_BRIDGE_PORT, PROTOCOL_VERSION } from '@browser-agent/protocol';
import { extensionDir, findBrowser } from '../daemon/launch/chromeLauncher.js';
import { statusFilePath, type DaemonStatus } from '../daemon/statusFile.js';
import { UPDATE_BRIDGE, versionSkew } from '../daemon/link/versionSkew.js';
import { statePaths, type StatePaths } from '../shared/paths.js';
import { pidAlive } from '../shared/pidAlive.js';
import { socketAnswers } from '../shared/socketAnswers.js';
import { packageVersion } from '../shared/version.js';
import { manifestProblem } from './extensionCommand.js';
import { daemonBuildCheck, daemonOnPort } from './doctorBuild.js';

export type CheckStatus = 'ok' | 'info' | 'warn' | 'fail';

export interface Check {
  id: string;
  status: CheckStatus;
  summary: string;
  /** The one thing to do, on warn and fail. */
  fix?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

export interface DoctorOptions {
  env: NodeJS.ProcessEnv;
  executablePath?: string | undefined;
}

const MIN_NODE = [20, 19] as const;
const LOG_TAIL_BYTES = 64 * 1024;

export async function diagnose(options: DoctorOptions): Promise<Check[]> {
  const { env } = options;
  const paths = statePaths(env);
  const status = readStatus(paths);
  const checks: Check[] = [nodeCheck(), await browserCheck(options), extensionCheck()];
  checks.push(...stateDirChecks(paths));
  const daemon = await daemonCheck(paths, status);
  checks.push(daemon);
  const port = status?.port ?? envPort(env);
  checks.push(await portCheck(port, status));
  if (status !== undefined) checks.push(linkCheck(status), sessionsCheck(status));
  checks.push(pairingCheck(paths, status));
  checks.push(logCheck(paths));
  return checks;
}

function envPort(env: NodeJS.ProcessEnv): number {
  const n = Number(env['BROWSER_AGENT_PORT']);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : DEFAULT_BRIDGE_PORT;
}

/** status.json of a daemon whose pid is alive; a dead daemon's file is stale. */
export function readStatus(paths: StatePaths): DaemonStatus | undefined {
  try {
    const status = JSON.parse(readFileSync(statusFilePath(paths.dir), 'utf8')) as DaemonStatus;
    return typeof status.pid === 'number' && pidAlive(status.pid) ? status : undefined;
  } catch {
    return undefined;
  }
}

function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    id: 'node',
    status: ok ? 'ok' : 'fail',
    summary: `Node ${process.versions.node} (${process.execPath})`,
    fix: ok ? undefined : `Install Node ${MIN_NODE.join('.')} or newer.`,
  };
}

async function browserCheck(options: DoctorOptions): Promise<Check> {
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

function extensionCheck(): Check {
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

function stateDirChecks(paths: StatePaths): Check[] {
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

async function daemonCheck(paths: StatePaths, status: DaemonStatus | undefined): Promise<Check> {
  const answers = process.platform !== 'win32' && (await socketAnswers(paths.socket));
  const pid = readPid(paths.pidFile);
  if (!answers && status === undefined) {
    return {
      id: 'daemon',
      status: 'info',
      summary: `no daemon running (the first MCP call starts one on ${paths.socket})`,
    };
  }
  const ours = packageVersion();
  if (status === undefined) {
    return {
      id: 'daemon',
      status: 'fail',
      summary: `a daemon answers on ${paths.socket}${pid ? ` (pid ${pid})` : ''} but does not say its version: it is older than ${ours}.`,
      fix: pid
        ? `Stop it: kill ${pid} (the next MCP call starts version ${ours}).`
        : `Stop the process that serves ${paths.socket}.`,
    };
  }
  const details = {
    pid: status.pid,
    version: status.version,
    socket: status.socket,
    port: status.port,
    startedAt: status.startedAt,
  };
  if (status.version !== ours || status.protocolVersion !== PROTOCOL_VERSION) {
    return {
      id: 'daemon',
      status: 'fail',
      summary: `the running daemon (pid ${status.pid}) is version ${status.version} (protocol v${status.protocolVersion}); this browser-agent-mcp is ${ours} (protocol v${PROTOCOL_VERSION}).`,
      fix: `Stop it: kill ${status.pid} (the next MCP call starts version ${ours}). Servers of the other version must be restarted too.`,
      details,
    };
  }
  const otherBuild = daemonBuildCheck(status, details);
  if (otherBuild) return otherBuild;
  return {
    id: 'daemon',
    status: 'ok',
    summary: `daemon ${status.version} running (pid ${status.pid}, since ${status.startedAt}) on ${status.socket ?? paths.socket}`,
    details,
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function portCheck(port: number, status: DaemonStatus | undefined): Promise<Check> {
  const listening = await portAnswers(port);
  if (!listening) {
    return status === undefined
      ? { id: 'port', status: 'ok', summary: `bridge port ${port} is free (nobody listens)` }
      : {
          id: 'port',
          status: 'fail',
          summary: `the daemon says it listens on port ${port}, but nothing answers there.`,
          fix: `Stop the daemon (kill ${status.pid}); the next MCP call starts a fresh one.`,
        };
  }
  if (status !== undefined && status.port === port) {
    return {
      id: 'port',
      status: 'ok',
      summary: `bridge port ${port} is held by our daemon (pid ${status.pid})`,
    };
  }
  const owner = portOwner(port);
  const daemon = daemonOnPort(port, owner);
  if (daemon) return daemon;
  return {
    id: 'port',
    status: 'fail',
    summary: `bridge port ${port} is taken by another program${owner ? ` (pid ${owner.pid}: ${owner.command})` : ''}; the daemon cannot listen there.`,
    fix: `Stop ${owner ? `pid ${owner.pid}` : 'that program'}, or use another port: set BROWSER_AGENT_PORT=<free port> in the MCP server's environment (and the same port in the side panel for your own Chrome).`,
    details: { port, owner },
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Linux: the process listening on 127.0.0.1:port, found through /proc (best effort). */
export function portOwner(port: number): { pid: number; command: string } | undefined {
  if (process.platform !== 'linux') return undefined;
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT"; state 0A is LISTEN; column 9 is the inode.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) {
        let command = '';
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        } catch {
          // Exited meanwhile.
        }
        return { pid, command: command.length > 120 ? `${command.slice(0, 117)}...` : command };
      }
    }
  }
  return undefined;
}

function linkCheck(status: DaemonStatus): Check {
  const ext = status.extension;
  if (ext.connected) {
    const skew = versionSkew(
      { release: ext.version, protocol: PROTOCOL_VERSION, build: ext.build },
      { release: status.version, protocol: status.protocolVersion, build: status.build },
    );
    return {
      id: 'extension-link',
      status: skew ? 'warn' : 'ok',
      summary: skew
        ? skew.message
        : `extension ${ext.version ?? '(version unknown)'} connected and matches the daemon`,
      fix: skew?.hint,
      details: { version: ext.version },
    };
  }
  if (ext.refused !== undefined) {
    return {
      id: 'extension-link',
      status: 'fail',
      summary: `extension refused: ${ext.refused.message}`,
      fix: ext.refused.hint ?? UPDATE_BRIDGE,
      details: { version: ext.version },
    };
  }
  if (status.pairingCode !== undefined) {
    return {
      id: 'extension-link',
      status: 'fail',
      summary: `not paired: an extension asks to pair with this daemon (code ${status.pairingCode}).`,
      fix: `Open the Browser Agent side panel in Chrome and type the code ${status.pairingCode} there.`,
    };
  }
  if (status.launchError !== undefined) {
    return {
      id: 'extension-link',
      status: 'fail',
      summary: `no extension connected; the launched browser failed: ${status.launchError}`,
      fix: 'Fix the browser (see the "browser" check), then restart the MCP client.',
    };
  }
  return {
    id: 'extension-link',
    status: 'fail',
    summary: `no extension connected to the daemon (port ${status.port}).`,
    fix: 'With your own Chrome: load the extension (the folder `browser-agent-mcp extension` prints) and open its side panel; otherwise run the server with --launch.',
  };
}

function sessionsCheck(status: DaemonStatus): Check {
  const list = status.sessions.map((s) => {
    const tabs = (s.tabs ?? []).map((t) => `tab ${t.tabId} ${t.url || '(no URL)'}`);
    return `${s.id} ${s.client}${s.project ? ` (${s.project})` : ''}${s.connected ? '' : ' [server gone, in grace]'}: ${tabs.length === 0 ? 'no tabs' : tabs.join(', ')}`;
  });
  return {
    id: 'sessions',
    status: 'info',
    summary:
      list.length === 0 ? 'no live sessions' : `${list.length} live session(s): ${list.join('; ')}`,
    details: { sessions: status.sessions },
  };
}

function pairingCheck(paths: StatePaths, status: DaemonStatus | undefined): Check {
  let count = status?.pairings;
  if (count === undefined) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(`${paths.dir}/pairings.json`, 'utf8'));
      count = Array.isArray(parsed) ? parsed.length : 0;
    } catch {
      count = 0;
    }
  }
  if (status?.pairingCode !== undefined) {
    return {
      id: 'pairing',
      status: 'fail',
      summary: `pairing waits for the user: code ${status.pairingCode}`,
      fix: `Open the Browser Agent side panel and type the code ${status.pairingCode} there.`,
    };
  }
  return {
    id: 'pairing',
    status: 'info',
    summary:
      count === 0
        ? 'no pairings yet (launch mode pairs its browser itself; your own Chrome pairs on first connect, in the side panel)'
        : `${count} pairing(s) stored`,
  };
}

function logCheck(paths: StatePaths): Check {
  let text: string;
  try {
    const buf = readFileSync(paths.logFile);
    text = buf.subarray(Math.max(0, buf.length - LOG_TAIL_BYTES)).toString('utf8');
  } catch {
    return { id: 'log', status: 'info', summary: `no daemon log yet (${paths.logFile})` };
  }
  const errors = text
    .split('\n')
    .filter((l) => / (error|warn) \[/.test(l))
    .slice(-5);
  return {
    id: 'log',
    status: 'info',
    summary:
      errors.length === 0
        ? `no errors in ${paths.logFile}`
        : `last errors and warnings in ${paths.logFile}:\n    ${errors.join('\n    ')}`,
    details: { errors },
  };
}
