/**
 * `<state dir>/status.json` (0600): what the running daemon knows about itself, the extension
 * link, pairing and sessions, rewritten (with a rename) whenever one of them changes. The
 * `doctor` command reads it; a file whose pid is not alive is stale and ignored.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionTab, WireError } from '@browser-agent/protocol';

export interface DaemonStatus {
  pid: number;
  version: string;
  protocolVersion: number;
  /** The daemon's build identity (#26.5); absent from daemons before it. */
  build?: string | undefined;
  socket: string | undefined;
  port: number;
  startedAt: string;
  extension: {
    connected: boolean;
    /** The release the extension named in its hello (the last one seen). */
    version?: string | undefined;
    /** The build the extension named in its hello, if it did. */
    build?: string | undefined;
    /** Why the last extension was refused (version mismatch, failed proof), if it was. */
    refused?: WireError | undefined;
  };
  /** A pairing code waiting for the user to confirm it in the side panel. */
  pairingCode?: string | undefined;
  /** Pairings this daemon holds (ids only). */
  pairings: number;
  launchError?: string | undefined;
  sessions: {
    id: string;
    client: string;
    project?: string | undefined;
    connected: boolean;
    /** The session's tabs as the extension last reported them (URL: origin + path only). */
    tabs?: SessionTab[] | undefined;
  }[];
  updatedAt: string;
}

export const STATUS_FILE = 'status.json';

export function statusFilePath(stateDir: string): string {
  return join(stateDir, STATUS_FILE);
}

export function writeStatus(stateDir: string, status: Omit<DaemonStatus, 'updatedAt'>): void {
  const file = statusFilePath(stateDir);
  const tmp = `${file}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ ...status, updatedAt: new Date().toISOString() }), {
      mode: 0o600,
    });
    renameSync(tmp, file);
  } catch {
    // A status the doctor cannot read is no reason to stop serving.
  }
}
