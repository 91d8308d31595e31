/**
 * Issue #25: a question only the person may answer. The overlay's buttons take only trusted
 * input, but the debugger's Input.dispatch* events are trusted too, and a page script or a
 * focus trick can reach the page around them; so while a question is open on a tab, the
 * agent's state-changing calls (clicks, keys, coordinates, scripts, navigations) on that tab
 * are refused before they run. Read-only calls (snapshots, waits) go on: they send no input.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { ApprovalQuestion } from '../../shared/messages';

export interface OpenQuestions {
  all(): ApprovalQuestion[];
}

/** Throws when a question to the user is open on `tabId`. */
export function refuseWhileAsked(questions: OpenQuestions, tabId: number | undefined): void {
  if (tabId === undefined || tabId < 0) return;
  const open = questions.all().find((q) => q.tabId === tabId);
  if (open === undefined) return;
  throw new BridgeError(
    ErrorCode.PAUSED,
    'A question to the user is open on this tab; only the person may answer it, so no input or script runs here until it is answered or expires.',
    'Wait for the user (browser_wait_for with a time), or tell them a question waits in the Browser Agent side panel; do not try to answer it.',
  );
}
