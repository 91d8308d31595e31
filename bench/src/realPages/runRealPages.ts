/**
 * The real-pages phase: every page is loaded by each server in turn (the order rotates page by
 * page, so a noisy moment hits all alike), then read with its default snapshot. Per page and
 * server it records the navigate time as the client saw it, whether the navigate said it failed,
 * the snapshot's size, and the share of the page's visible controls and main-text sentences the
 * snapshot kept. A failed navigate is a finding, not a stop: the snapshot is still taken.
 */
import type { FixtureSite } from '../../fixtures/server.js';
import type { RealPage } from '../../fixtures/realPages.js';
import { progress } from '../log.js';
import type { Peer, PeerId } from './peers.js';
import { recall } from './recall.js';
import { turnOrder } from '../runner/measureProbe.js';

export interface PageVisit {
  page: string;
  kind: RealPage['kind'];
  hangs: boolean;
  peer: PeerId;
  navigateMs: number;
  navigateFailed: boolean;
  /** The first line of a failed navigate's answer. */
  navigateNote: string | undefined;
  snapshotChars: number;
  snapshotFailed: boolean;
  controlRecall: number;
  textRecall: number;
}

export async function runRealPages(
  peers: readonly Peer[],
  site: FixtureSite,
  pages: readonly RealPage[],
): Promise<PageVisit[]> {
  const visits: PageVisit[] = [];
  // One untimed load each first: the peers start their browser on the first call.
  for (const peer of peers) await peer.navigate(site.url('/button.html'));
  for (const [i, page] of pages.entries()) {
    const order = turnOrder(peers, i);
    for (const peer of order) {
      const nav = await peer.navigate(site.url(page.path));
      const failed = peer.navigationFailed(nav);
      const snap = await peer.snapshot();
      visits.push({
        page: page.path,
        kind: page.kind,
        hangs: page.hangs,
        peer: peer.id,
        navigateMs: nav.ms,
        navigateFailed: failed,
        navigateNote: failed ? nav.text.split('\n').find((l) => l.trim() !== '') : undefined,
        snapshotChars: snap.text.length,
        snapshotFailed: snap.isError,
        controlRecall: recall(snap.text, page.controls),
        textRecall: recall(snap.text, page.sentences),
      });
    }
    const line = order
      .flatMap((p) => {
        const v = visits.findLast((x) => x.peer === p.id);
        return v
          ? [`${p.id} ${Math.round(v.navigateMs)} ms${v.navigateFailed ? ' (failed)' : ''}`]
          : [];
      })
      .join(', ');
    progress(`real page ${i + 1}/${pages.length} ${page.path}: ${line}`);
  }
  return visits;
}
