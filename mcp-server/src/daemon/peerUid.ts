/**
 * Who owns the other end of a loopback TCP connection, where the OS can tell (Linux: the kernel's
 * socket tables in /proc/net/tcp and tcp6). The peer's socket is the row whose local port is the
 * connection's remote port and whose remote port is ours; its uid column is the owner.
 * Elsewhere (macOS, Windows) the answer is undefined, and docs/security.md says what that leaves.
 */
import { readFileSync } from 'node:fs';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

export function peerUid(peerPort: number, ourPort: number): number | undefined {
  const local = `:${hex4(peerPort)}`;
  const remote = `:${hex4(ourPort)}`;
  for (const table of TABLES) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [, localAddress, remoteAddress, , , , , uid] = cols;
      if (localAddress?.endsWith(local) && remoteAddress?.endsWith(remote) && uid !== undefined)
        return Number(uid);
    }
  }
  return undefined;
}

function hex4(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/** Why a peer is refused, or undefined: another OS user's process never reaches the handshake. */
export function checkPeerUid(peerPort: number | undefined, ourPort: number): string | undefined {
  const own = process.getuid?.();
  if (own === undefined || peerPort === undefined) return undefined;
  const uid = peerUid(peerPort, ourPort);
  if (uid === undefined || uid === own) return undefined;
  return `the connecting process belongs to uid ${uid}, not to this bridge's user (uid ${own})`;
}
