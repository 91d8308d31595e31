/**
 * The panel's "Stop all agents" and its undo, "Resume all". Stop all pauses every active session
 * (its calls are cancelled by the caller) and marks the ones it paused; Resume all resumes those
 * and only those, so an agent the user had paused on its own stays paused. A Pause, Resume or
 * Revoke on one card takes that card out of Stop all's hands.
 */
import type { SessionRecord } from '../sessionStore';

/** Pauses every active session and marks it as paused by Stop all. */
export function stopAllSessions(records: SessionRecord[]): void {
  for (const r of records) {
    if (r.state !== 'active') continue;
    r.state = 'paused';
    r.stoppedByAll = true;
  }
}

/** Resumes the sessions Stop all paused; returns how many. */
export function resumeAllSessions(records: SessionRecord[]): number {
  let resumed = 0;
  for (const r of records) {
    if (r.stoppedByAll !== true) continue;
    r.stoppedByAll = false;
    if (r.state !== 'paused') continue;
    r.state = 'active';
    resumed++;
  }
  return resumed;
}
