import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** A client that never answers roots/list must not hold up the session. */
const ROOTS_TIMEOUT_MS = 1_000;

/** The session's project: the client's first file:// root, when the client offers roots. */
export async function projectFromRoots(server: Server): Promise<string | undefined> {
  if (!server.getClientCapabilities()?.roots) return undefined;
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    const first = roots.find((r) => r.uri.startsWith('file://'));
    return first ? fileURLToPath(first.uri) : undefined;
  } catch {
    return undefined;
  }
}
