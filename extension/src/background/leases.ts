import type { SessionRecord } from './sessionStore';
import { friendlyClientName } from '../shared/clientNames';

/**
 * Puts a leased tab into its session's tab group (titled after the client), creating the group
 * on first use. Groups are how the user sees, and changes, which tabs an agent may touch.
 */
export async function addToGroup(record: SessionRecord, tabId: number): Promise<void> {
  try {
    if (record.groupId !== undefined) {
      const exists = await chrome.tabGroups.get(record.groupId).catch(() => undefined);
      if (exists) {
        await chrome.tabs.group({ groupId: record.groupId, tabIds: [tabId] });
        return;
      }
      // The group is gone (its last tab closed, e.g. by browser_close). Forget it before making a
      // new one: the new group's event arrives before chrome.tabs.group answers, and a tab moving
      // into a group nobody owns while its session still names a group is released to the user.
      record.groupId = undefined;
    }
    record.groupId = await chrome.tabs.group({ tabIds: [tabId] });
    await chrome.tabGroups.update(record.groupId, {
      title: friendlyClientName(record.client.name),
      color: record.color,
      collapsed: false,
    });
  } catch {
    // Grouping is a visual aid; a window type without groups (popup, app) must not fail a call.
  }
}

/** Takes a tab out of any group, leaving it open for the user. */
export async function ungroup(tabIds: number[]): Promise<void> {
  const [first, ...rest] = tabIds;
  if (first === undefined) return;
  await chrome.tabs.ungroup([first, ...rest]).catch(() => undefined);
}
