/** Starts the three servers in one sandbox, runs the pages, and stops the peers again. */
import os from 'node:os';
import type { FixtureSite } from '../../fixtures/server.js';
import type { RealPage } from '../../fixtures/realPages.js';
import { progress } from '../log.js';
import type { Sandbox } from '../sandbox.js';
import { startPeer, type Peer, type PeerId } from './peers.js';
import { runRealPages, type PageVisit } from './runRealPages.js';

export const ALL_PEERS: readonly PeerId[] = ['ours', 'playwright-mcp', 'chrome-devtools-mcp'];

export interface RealPagesRun {
  peers: readonly PeerId[];
  visits: PageVisit[];
  loadBefore: number[];
  loadAfter: number[];
}

/**
 * `ours` may be a session the caller already has (the bench's own); the peers are spawned here
 * and closed at the end, so their browsers do not linger into later phases.
 */
export async function realPagesPhase(
  sandbox: Sandbox,
  site: FixtureSite,
  pages: readonly RealPage[],
  ours?: Peer,
): Promise<RealPagesRun> {
  const peers: Peer[] = [];
  try {
    for (const id of ALL_PEERS) {
      if (id === 'ours' && ours !== undefined) peers.push(ours);
      else {
        progress(`real pages: starting ${id}`);
        peers.push(await startPeer(id, sandbox));
      }
    }
    const loadBefore = os.loadavg();
    const visits = await runRealPages(peers, site, pages);
    return { peers: peers.map((p) => p.id), visits, loadBefore, loadAfter: os.loadavg() };
  } finally {
    for (const p of peers) if (p !== ours) await p.client.close();
  }
}
