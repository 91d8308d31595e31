import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';
import type { Settings } from '../shared/messages';
import { localArea } from '../shared/storageAreas';
import { DEFAULT_SENSITIVE_SITES } from './approvals/sensitiveSites';

const KEY = 'settings';

export const DEFAULT_SETTINGS: Settings = {
  keepWorkingWhenPanelClosed: false,
  onSessionEnd: 'close',
  bridgePort: DEFAULT_BRIDGE_PORT,
  askBeforeSecretSubmit: false,
  recordSteps: true,
  // Today's behaviour for agents whose config names no mode; docs/permissions.md suggests per-site.
  defaultPermissionMode: 'autonomous',
  sensitiveSites: [...DEFAULT_SENSITIVE_SITES],
};

/**
 * Read once per worker instance: every call consults the settings, and a storage read is a round
 * trip to the browser process. Only `saveSettings` (in this worker) writes them.
 */
let cached: Promise<Settings> | undefined;

/**
 * The user's settings, in storage.local so they outlive the browser session (an isolated launch's
 * context keeps them in its memory: shared/storageAreas.ts).
 */
export function loadSettings(): Promise<Settings> {
  cached ??= localArea()
    .get(KEY)
    .then(
      (items) => ({ ...DEFAULT_SETTINGS, ...(items[KEY] as Partial<Settings> | undefined) }),
      (err: unknown) => {
        cached = undefined;
        throw err;
      },
    );
  return cached;
}

export async function saveSettings(patch: Partial<Settings>): Promise<Settings> {
  const next = { ...(await loadSettings()), ...patch };
  cached = Promise.resolve(next);
  await localArea().set({ [KEY]: next });
  return next;
}
