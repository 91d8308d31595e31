import { defineManifest } from '@crxjs/vite-plugin';
import { EXTENSION_PUBLIC_KEY } from '@browser-agent/protocol';
import pkg from './package.json' with { type: 'json' };
import { buildIdentity } from '../scripts/buildIdentity.mjs';

export default defineManifest({
  manifest_version: 3,
  name: 'Browser Agent',
  description:
    'Lets AI agents (MCP clients) work in this browser while you watch, pause or revoke them.',
  version: pkg.version,
  // Names the build on disk: Chrome does not register a kept service worker again when an
  // unpacked extension's files change, so the daemon compares this with the build a kept launch
  // profile last ran and drops its workers on a change (daemon/launch/workerCache.ts).
  version_name: `${pkg.version} build ${buildIdentity('..')}`,
  // Pins the extension id, so the daemon can accept exactly one WebSocket Origin.
  key: EXTENSION_PUBLIC_KEY,
  // WebSocket keepalive from an extension context resets the service worker's idle timer from 116 on.
  minimum_chrome_version: '116',
  permissions: [
    // Drives the session's tabs: accessibility tree, input events, screenshots, navigation.
    'debugger',
    // Opens, lists and closes the session's tabs, and reads their URLs and titles.
    'tabs',
    // The relay and the user's controls live in the side panel.
    'sidePanel',
    // Keeps the minimum session state across service-worker restarts (storage.session).
    'storage',
    // Shows each agent's tabs as a named, coloured group: its lease, visible to the user.
    'tabGroups',
    // Wakes a stopped worker so a worker-held bridge link reconnects.
    'alarms',
    // Tells which tab opened a popup, so it joins that tab's session (and no other).
    'webNavigation',
    // The side panel shows each agent's page with its icon from Chrome's own favicon cache
    // (chrome-extension://<id>/_favicon/), so the panel never loads a page-chosen icon URL.
    'favicon',
    // Refuses a popup's first request to an origin its session may not load: chrome.debugger
    // cannot attach to a tab before that request leaves (background/popupGuard/).
    'declarativeNetRequest',
  ],
  // An admin's allowed and blocked sites, set by Chrome policy (docs/permissions.md).
  storage: { managed_schema: 'managed_schema.json' },
  background: { service_worker: 'src/background/index.ts', type: 'module' },
  side_panel: { default_path: 'src/sidepanel/index.html' },
  action: { default_title: 'Browser Agent: open the side panel' },
  content_scripts: [
    {
      // Draws the "controlled by <client>" marker; holds no privileged logic. At document_start
      // like the others: a content script that runs at document_end or document_idle, even an
      // empty one, held each page's load event (60-150 ms on a 5,000-element page, within noise
      // on small ones; benchmarks.md "Session 27"), and every navigate waits for load.
      matches: ['http://*/*', 'https://*/*'],
      js: ['src/content/overlay.ts'],
      run_at: 'document_start',
    },
    {
      // Holds a secret form's submit during an agent's call when the user asked to be asked
      // (issue #7). In every frame from the start, so it runs before the page's own listeners.
      matches: ['http://*/*', 'https://*/*'],
      js: ['src/content/submitGuard.ts'],
      run_at: 'document_start',
      all_frames: true,
    },
    {
      // The guard's eyes in the page's own world: form.submit() fires no event, so it is
      // announced to the guard above. Decides nothing; the native method runs unless the armed
      // guard holds the call.
      matches: ['http://*/*', 'https://*/*'],
      js: ['src/content/submitHook.ts'],
      run_at: 'document_start',
      all_frames: true,
      world: 'MAIN',
    },
  ],
});
