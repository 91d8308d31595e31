/**
 * Chrome's tab events that change what a session owns: a leased tab that lands on a blocked
 * origin, and a tab the user moved into or out of an agent's tab group.
 */
import { checkOrigin } from '@browser-agent/protocol';
import type { Controls } from '../controls';
import type { BlockedLoads } from '../guard/blockedLoads';
import type { SessionContexts } from '../sessionContext';
import type { SessionStore } from '../sessionStore';

/** How recent a guard refusal must be to explain a tab showing a blocked URL. */
const GUARDED_LOAD_WINDOW_MS = 30_000;
const BLOCKED_TAB_CLOSE_DELAY_MS = 300;

export interface TabEventsDeps {
  store: SessionStore;
  blocked: BlockedLoads;
  contexts: SessionContexts;
  controls: Controls;
}

/**
 * The network guard stops blocked loads in attached tabs; a popup can start loading before it
 * is attached, so a leased tab that still lands on a blocked origin is closed at once.
 */
export async function enforcePolicy(
  deps: TabEventsDeps,
  tabId: number,
  url: string,
): Promise<void> {
  const owner = await deps.store.ownerOf(tabId);
  const verdict = checkOrigin(owner?.policy, url);
  if (!owner || verdict.allowed) return;
  // A load the guard refused leaves its URL on Chrome's error page: nothing slipped through.
  if (deps.blocked.since(tabId, Date.now() - GUARDED_LOAD_WINDOW_MS).some((b) => b.url === url))
    return;
  deps.blocked.record(owner.currentTabId ?? tabId, {
    url,
    reason: verdict.reason,
    at: Date.now(),
  });
  await deps.contexts.forgetTab(tabId);
  // Deferred like a blocked popup's close (see SessionContexts.adoptPopup): it is out of the
  // lease already, so the agent cannot see it meanwhile.
  setTimeout(
    () => void chrome.tabs.remove(tabId).catch(() => undefined),
    BLOCKED_TAB_CLOSE_DELAY_MS,
  );
}

/** Keeps leases in step with tab groups the user rearranged by hand. */
export async function leaseFollowsGroup(
  deps: TabEventsDeps,
  tabId: number,
  groupId: number,
): Promise<void> {
  const owner = await deps.store.ownerOf(tabId);
  const groupOwner =
    groupId === chrome.tabGroups.TAB_GROUP_ID_NONE
      ? undefined
      : await deps.store.ownerOfGroup(groupId);
  if (groupOwner && groupOwner !== owner && groupOwner.state !== 'revoked')
    await deps.controls.adopt(groupOwner, tabId);
  else if (owner && !groupOwner && owner.groupId !== undefined) await deps.controls.release(tabId);
}
