/**
 * What a tab gets each time the debugger attaches to it (and again after a worker restart):
 * console capture, the origin guard, the download gate, the per-tab recorders, side-effect
 * tracking, the session's emulation, and the overlay of the agent that owns it.
 */
import type { CdpClient } from '../cdp';
import type { Permissions } from '../approvals/permissions';
import { installDownloadGate } from '../approvals/downloadGate';
import { applySessionEmulation } from '../emulation/sessionEmulation.js';
import type { BlockedLoads } from '../guard/blockedLoads';
import { installOriginGuard } from '../guard/originGuard';
import { showOverlay } from '../overlay';
import { captureConsole } from '../recorders/consoleCapture';
import type { SessionStore } from '../sessionStore';
import type { AttachHook, TabStates } from '../tabStates';
import type { TransactionServices } from '../transactions';
import { friendlyClientName } from '../../shared/clientNames';

export interface AttachDeps {
  store: SessionStore;
  tabStates: TabStates;
  blocked: BlockedLoads;
  permissions: Permissions;
  transactions: TransactionServices;
  /** The per-tab recorders (tools/index.ts), passed in so this file stands below the registry. */
  attachHooks: readonly AttachHook[];
  /** The name the tab's overlay shows, or null when no live agent owns the tab. */
  overlayFor(tabId: number): Promise<string | null>;
}

export async function attachTab(deps: AttachDeps, tabId: number, cdp: CdpClient): Promise<void> {
  const state = deps.tabStates.get(tabId);
  captureConsole(cdp, state);
  await Promise.all([cdp.send('Page.enable'), cdp.send('Runtime.enable'), cdp.send('Log.enable')]);
  const owner = await deps.store.ownerOf(tabId);
  const guard = owner?.policy
    ? installOriginGuard(
        cdp,
        () => owner.policy,
        (load) => deps.blocked.record(tabId, load),
        (url) => state.servedOrigin !== undefined && url.startsWith(`${state.servedOrigin}/`),
      )
    : undefined;
  // Every tab: its Fetch patterns (RESPONSE_BODY_PATTERNS) pause each document response.
  installDownloadGate(cdp, {
    tabId,
    owner: () => deps.store.ownerOf(tabId),
    gate: deps.permissions.gate,
    questions: deps.permissions.questions,
    clientName: (record) => friendlyClientName(record.client.name),
  });
  // Before the hooks: auto-attaching child frames (a hook) already needs it.
  state.guardChild = guard === undefined ? undefined : (id) => guard.enableChild(id);
  // All at once: each registers its listeners before its first await and sends its commands in
  // one go, so Chrome gets them in the same order as one after another, without the ~10 round
  // trips in between (134 ms of a launched browser's first navigate, #26).
  await Promise.all([
    ...deps.attachHooks.map((hook) => hook({ tabId, cdp, state })),
    deps.transactions.sideEffects.watch(tabId, cdp),
    // Emulation rather than resizing the window: the window is the user's, and may hold other
    // tabs.
    applySessionEmulation(cdp, owner?.settings),
  ]);
  // After the hooks: its Fetch patterns replace the network recorder's (Fetch.enable is one set).
  await guard?.enableTab();
  const client = await deps.overlayFor(tabId);
  if (client !== null) showOverlay(tabId, client, deps.permissions.overlayQuestion(tabId));
}
