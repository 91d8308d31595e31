import { pairingIdOf } from './pairingCrypto';

export interface StoredPairing {
  id: string;
  secret: string;
  label: string;
  createdAt: string;
}

const KEY = 'pairings';

/** The extension's half of every pairing, in extension storage (never in a page's reach). */
export async function loadPairings(): Promise<StoredPairing[]> {
  const items = await chrome.storage.local.get(KEY);
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
  await chrome.storage.local.set({ [KEY]: [...others, pairing].slice(-20) });
  return pairing;
}

export async function forgetPairing(id: string): Promise<void> {
  await chrome.storage.local.set({ [KEY]: (await loadPairings()).filter((p) => p.id !== id) });
}

/**
 * Launch mode (and the test harness) hands the relay page a secret in its URL fragment:
 * `#pair=<id>.<secret>`. It is kept only if the id matches the secret, then wiped from the URL.
 */
export async function adoptPairingFromFragment(
  location: Location,
  history: History,
): Promise<void> {
  const match = /^#pair=([\w-]+)\.([A-Za-z0-9+/=]+)$/.exec(location.hash);
  if (!match?.[1] || !match[2]) return;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  if ((await pairingIdOf(match[2])) !== match[1]) return;
  await savePairing(match[2], 'Launched browser');
}
