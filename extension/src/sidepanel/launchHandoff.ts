import type { LaunchHandoff } from '../shared/messages';
import { loadPairings, type StoredPairing } from '../shared/pairings';
import { bridgePort, noBrowserPolicy } from './bridgePort';

/**
 * What an isolated launch's relay page hands its worker (LaunchHandoff, shared/messages.ts). The
 * pairing goes only while this page still keeps it: the user may have forgotten it here since.
 */
export async function launchHandoff(adopted: StoredPairing | undefined): Promise<LaunchHandoff> {
  const kept =
    adopted === undefined ? undefined : (await loadPairings()).find((p) => p.id === adopted.id);
  return {
    kind: 'launch_handoff',
    pairing: kept === undefined ? null : { secret: kept.secret, label: kept.label },
    bridgePort: bridgePort(),
    noBrowserPolicy: noBrowserPolicy(),
  };
}
