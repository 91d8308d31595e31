/**
 * Doctor checks read from the daemon's status.json: the extension link, sessions and pairing;
 * and the daemon log's last errors.
 */
import { readFileSync } from 'node:fs';
import { PROTOCOL_VERSION } from '@browser-agent/protocol';
import { UPDATE_BRIDGE, versionSkew } from '../../daemon/link/versionSkew.js';
import type { DaemonStatus } from '../../daemon/statusFile.js';
import type { StatePaths } from '../../shared/paths.js';
import type { Check } from './check.js';

const LOG_TAIL_BYTES = 64 * 1024;

export function linkCheck(status: DaemonStatus): Check {
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

export function sessionsCheck(status: DaemonStatus): Check {
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

export function pairingCheck(paths: StatePaths, status: DaemonStatus | undefined): Check {
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

export function logCheck(paths: StatePaths): Check {
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
