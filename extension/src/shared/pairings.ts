import { pairingIdOf } from './pairingCrypto';
import { localArea } from './storageAreas';

export interface StoredPairing {
  id: string;
  secret: string;
  label: string;
  createdAt: string;
}

export const PAIRINGS_KEY = 'pairings';
const KEY = PAIRINGS_KEY;

/** The extension's half of every pairing, in extension storage (never in a page's reach). */
export async function loadPairings(): Promise<StoredPairing[]> {
  const items = await localArea().get(KEY);
  const list = items[KEY] as StoredPairing[] | undefined;
  return Array.isArray(list) ? list : [];
}

export async function savePairing(secret: string, label: string): Promise<StoredPairing> {
  const pairing: StoredPairing = {
    id: await pairingIdOf(secret),
    secret,
    label,
    createdAt: new Date().toISOString(),
  };
  const others = (await loadPairings()).filter((p) => p.id !== pairing.id);
  await localArea().set({ [KEY]: [...others, pairing].slice(-20) });
  return pairing;
}

const LAUNCHED_LABEL = 'Launched browser';

/**
 * Ids of pairings the user forgot, for the daemon to forget too. Whichever link is connected
 * (the panel's or the worker's) sends `unpair` for each at once and on every later connect; the
 * extension cannot tell which daemon holds a pairing, and an id a daemon does not know is
 * ignored there, so they stay until newer ones push them out.
 */
export const FORGOTTEN_KEY = 'forgottenPairings';
const FORGOTTEN_MAX = 20;

export async function forgottenPairings(): Promise<string[]> {
  const list: unknown = (await localArea().get(FORGOTTEN_KEY))[FORGOTTEN_KEY];
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

export async function forgetPairing(id: string): Promise<void> {
  const forgotten = (await forgottenPairings()).filter((f) => f !== id);
  await localArea().set({
    [KEY]: (await loadPairings()).filter((p) => p.id !== id),
    [FORGOTTEN_KEY]: [...forgotten, id].slice(-FORGOTTEN_MAX),
  });
}

/**
 * Launch mode (and the test harness) hands the relay page a secret in its URL fragment:
 * `#pair=<id>.<secret>`. It is kept only if the id matches the secret, then wiped from the URL.
 * Resolves to the pairing kept, if any.
 */
export async function adoptPairingFromFragment(
  location: Location,
  history: History,
): Promise<StoredPairing | undefined> {
  const match = /^#pair=([\w-]+)\.([A-Za-z0-9+/=]+)$/.exec(location.hash);
  if (!match?.[1] || !match[2]) return undefined;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  if ((await pairingIdOf(match[2])) !== match[1]) return undefined;
  return adoptPairing(match[2], LAUNCHED_LABEL);
}

/**
 * Keeps `secret` as the one pairing with this label. A launching daemon keeps its half in memory
 * only: older launch pairings can never work again.
 */
export async function adoptPairing(secret: string, label: string): Promise<StoredPairing> {
  const kept = (await loadPairings()).filter((p) => p.label !== label);
  await localArea().set({ [KEY]: kept });
  return savePairing(secret, label);
}
