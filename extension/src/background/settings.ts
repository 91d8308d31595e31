import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';
import type { Settings } from '../shared/messages';

const KEY = 'settings';

export const DEFAULT_SETTINGS: Settings = {
  keepWorkingWhenPanelClosed: false,
  onSessionEnd: 'close',
  bridgePort: DEFAULT_BRIDGE_PORT,
  askBeforeSecretSubmit: false,
};

/** The user's settings, in storage.local so they outlive the browser session. */
export async function loadSettings(): Promise<Settings> {
  const items = await chrome.storage.local.get(KEY);
  const saved = items[KEY] as Partial<Settings> | undefined;
  return { ...DEFAULT_SETTINGS, ...saved };
}

export async function saveSettings(patch: Partial<Settings>): Promise<Settings> {
  const next = { ...(await loadSettings()), ...patch };
  await chrome.storage.local.set({ [KEY]: next });
  return next;
}
