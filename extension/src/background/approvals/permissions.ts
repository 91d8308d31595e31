/**
 * The worker's one handle on issue #19's permissions: the open questions, the permission gate,
 * site grants, and the guards' approvals (ask-before-submit, the irreversible-action gate). It
 * shows each question wherever the user may be: every side panel, the tab's overlay, and the
 * agent's MCP client (an `approval_question` event the server turns into an elicitation). The
 * first answer wins.
 */
import {
  APPROVAL_CLOSED_EVENT,
  APPROVAL_QUESTION_EVENT,
  type AdminSites,
  type ApprovalQuestionEvent,
  type ApprovalScope,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type {
  ApprovalQuestion,
  OverlayQuestion,
  PermissionsView,
  Settings,
} from '../../shared/messages';
import type { CdpClient } from '../cdp';
import type { SessionRecord } from '../sessionStore';
import { showOverlay } from '../overlay';
import { ApprovalQuestions } from './approvalQuestions';
import { PermissionGate } from './permissionGate';
import { SiteGrants } from './siteGrants';
import { SubmitApprovals } from './submitApprovals';
import { ManagedSites } from './managedSites';

export interface PermissionsDeps {
  cdpFor(tabId: number): Promise<CdpClient>;
  record(sessionId: string): Promise<SessionRecord | undefined>;
  records(): Promise<SessionRecord[]>;
  settings(): Promise<Settings>;
  /** The open questions changed (panels, badge, agent cards). */
  questionsChanged(questions: ApprovalQuestion[]): void;
  /** Grants or modes changed (the panel's permissions list, agent cards). */
  permissionsChanged(): void;
  /** The way to the daemon, when there is a link: events for the agents' MCP clients. */
  toDaemon(): ((frame: WorkerToRelayFrame) => void) | undefined;
}

export class Permissions {
  readonly questions: ApprovalQuestions;
  readonly grants: SiteGrants;
  readonly gate: PermissionGate;
  readonly guards: SubmitApprovals;
  /** The admin's lists from Chrome policy, read ahead and kept (managedSites.ts). */
  readonly managed = new ManagedSites();
  readonly #deps: PermissionsDeps;
  /** Questions already announced, so each opens and closes once everywhere. */
  #shown = new Map<string, ApprovalQuestion>();

  constructor(deps: PermissionsDeps) {
    this.#deps = deps;
    this.questions = new ApprovalQuestions((questions) => this.#changed(questions));
    this.grants = new SiteGrants(() => deps.permissionsChanged());
    this.gate = new PermissionGate({
      questions: this.questions,
      grants: this.grants,
      record: (sessionId) => deps.record(sessionId),
      settings: () => deps.settings(),
      managedSites: () => this.managed.get(),
      modesChanged: () => deps.permissionsChanged(),
    });
    this.guards = new SubmitApprovals({
      cdpFor: (tabId) => deps.cdpFor(tabId),
      questions: this.questions,
    });
    this.managed.warm();
    chrome.storage.onChanged.addListener((_changes, area) => {
      if (area === 'managed') this.managed.changed();
    });
  }

  /** From a panel, the overlay or the agent's client; the first answer wins. */
  answer(id: string, allow: boolean, scope?: ApprovalScope): void {
    this.questions.answer(id, allow, scope);
  }

  /** From the daemon: only the session that was asked may answer, through its own server. */
  answerFromClient(sessionId: string, id: string, allow: boolean, scope?: ApprovalScope): void {
    if (this.questions.get(id)?.sessionId !== sessionId) return;
    this.questions.answer(id, allow, scope);
  }

  /**
   * From the tab's overlay. A page cannot send runtime messages, and the overlay lives in a
   * closed shadow root; but the agent's own input is trusted input, so an answer is refused
   * while a call of that agent other than the asking one is running (it could be the click).
   */
  answerFromOverlay(
    tabId: number,
    id: string,
    allow: boolean,
    scope: ApprovalScope,
    busy: number,
  ): void {
    const question = this.questions.get(id);
    if (question?.tabId !== tabId) return;
    if (busy > 1) {
      // Refused: the box is shown again, saying why, so the click is not silently lost.
      void this.#overlay(question, REFUSED_WHILE_BUSY);
      return;
    }
    this.questions.answer(id, allow, scope);
  }

  async view(): Promise<PermissionsView> {
    // Chrome's policy first: its read may wait (managedSites.ts), and the sessions read after
    // it are then the current ones, not those of before the wait (a view without a session's
    // admin file was sent after a newer one with it).
    const managed = await this.managed.get();
    const settings = await this.#deps.settings();
    const records = await this.#deps.records();
    const admin: AdminSites[] = [];
    if (managed) admin.push(managed);
    for (const r of records) {
      const a = r.settings?.adminSites;
      if (a && !admin.some((x) => x.source === a.source)) admin.push(a);
    }
    return { grants: await this.grants.all(), sensitiveSites: settings.sensitiveSites, admin };
  }

  /** What the overlay of `tabId` shows besides its marker. */
  overlayQuestion(tabId: number): OverlayQuestion | undefined {
    const q = this.questions.all().find((x) => x.tabId === tabId);
    if (q === undefined) return undefined;
    const text = questionWithWhy(q);
    return { id: q.id, text, scopes: q.scopes, expiresAt: q.expiresAt, highlight: q.highlight };
  }

  /** A (re)connected daemon learns the open questions again, for its servers to elicit. */
  announceAll(): void {
    for (const q of this.questions.all()) this.#announce(q);
  }

  #changed(questions: ApprovalQuestion[]): void {
    const open = new Map(questions.map((q) => [q.id, q]));
    for (const [id, q] of this.#shown) {
      if (open.has(id)) continue;
      this.#send(q.sessionId, APPROVAL_CLOSED_EVENT, { questionId: id });
      void this.#overlay(q);
    }
    for (const [id, q] of open) {
      if (this.#shown.has(id)) continue;
      this.#announce(q);
      void this.#overlay(q);
    }
    this.#shown = open;
    this.#deps.questionsChanged(questions);
  }

  #announce(q: ApprovalQuestion): void {
    const data: ApprovalQuestionEvent = {
      questionId: q.id,
      message: elicitationText(q).slice(0, 2000),
      scopes: q.scopes,
      expiresAt: q.expiresAt,
    };
    this.#send(q.sessionId, APPROVAL_QUESTION_EVENT, data);
  }

  #send(sessionId: string, event: string, data: unknown): void {
    try {
      this.#deps.toDaemon()?.({ type: 'event', sessionId, event, data });
    } catch {
      // No link right now: the panel and the overlay still ask.
    }
  }

  async #overlay(q: ApprovalQuestion, note?: string): Promise<void> {
    if (q.tabId < 0) return;
    const record = await this.#deps.record(q.sessionId);
    if (record === undefined || !record.tabIds.includes(q.tabId)) return;
    const shown = this.overlayQuestion(q.tabId);
    showOverlay(
      q.tabId,
      record.client.name,
      shown && note !== undefined && shown.id === q.id
        ? { ...shown, text: `${shown.text} ${note}` }
        : shown,
    );
  }
}

/** Said on the overlay when its answer was refused because the agent runs another call. */
export const REFUSED_WHILE_BUSY =
  'Not answered: the agent is running another call right now, which could have been that click. Answer in the side panel, or here once that call ends.';

/**
 * The question as the MCP client shows it: the sentence, why it is asked, and the page it is
 * on when the tab has one ("On the page “Checkout” (https://shop.test/cart)").
 */
export function elicitationText(q: ApprovalQuestion): string {
  const page =
    q.pageUrl === '' && q.tabTitle === ''
      ? ''
      : ` On the page ${q.tabTitle === '' ? q.pageUrl : `“${q.tabTitle}” (${q.pageUrl})`}.`;
  return `${questionWithWhy(q)}${page}`;
}

/** The sentence and why it is asked, as the overlay and the MCP client show them. */
function questionWithWhy(q: ApprovalQuestion): string {
  return `${questionText(q)}${q.why ? ` ${q.why}` : ''}`;
}

/** The question in one sentence, as the panel's heading says it. */
export function questionText(q: ApprovalQuestion): string {
  if (q.text !== undefined) return q.text;
  if (q.kind === 'script') return `Let ${q.client} run a script on this page?`;
  return `Let ${q.client} submit this form (a ${q.fields.join(', ')} field, to ${q.targetOrigin})?`;
}
