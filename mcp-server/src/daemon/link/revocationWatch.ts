/**
 * A pairing revoked while its link is up (`browser-agent-mcp pairings revoke`, which edits the
 * store's file) ends that link at once; its browser has to pair again. The store's directory is
 * watched (not the file) because the store replaces the file by a rename.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../../shared/logger.js';
import type { PairingStore } from './pairingStore.js';

/** Calls `changed` with the ids still stored on each change; undefined if unwatchable. */
export function watchRevocations(
  pairings: PairingStore,
  changed: (stored: ReadonlySet<string>) => void,
  log: Logger,
): FSWatcher | undefined {
  const file = basename(pairings.path);
  try {
    const watcher = watch(dirname(pairings.path), (_event, name) => {
      if (name !== file) return;
      changed(new Set(pairings.all().map((p) => p.id)));
    });
    watcher.on('error', () => undefined);
    return watcher;
  } catch (err) {
    log.warn(`cannot watch the pairings for revocations: ${String(err)}`);
    return undefined;
  }
}
