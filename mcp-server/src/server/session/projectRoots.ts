import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** A client that never answers roots/list must not hold up the session. */
const ROOTS_TIMEOUT_MS = 1_000;

/** The session's project: the client's first file:// root, when the client offers roots. */
export async function projectFromRoots(server: Server): Promise<string | undefined> {
  return (await fileRoots(server))[0];
}

/** Every file:// root the client offers now (it may change them during the session). */
export async function fileRoots(server: Server): Promise<string[]> {
  if (!server.getClientCapabilities()?.roots) return [];
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    return roots.filter((r) => r.uri.startsWith('file://')).map((r) => fileURLToPath(r.uri));
  } catch {
    return [];
  }
}
