/**
 * Issue #25: a tab that waits for the person (a download held for their answer, any open
 * question) is not wedged. The renderer watch would see its stuck load and put a fresh tab in
 * its place, and closing the old one let the held download through; so such a tab is never
 * replaced while its question is open.
 */
import type { OpenQuestions } from '../approvals/openQuestionGuard';

export function heldForPerson(questions: OpenQuestions, tabId: number): boolean {
  return questions.all().some((q) => q.tabId === tabId);
}
