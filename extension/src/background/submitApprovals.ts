/**
 * Ask-before-submit (issue #7, opt-in): while an agent's call runs, the submit guards of the
 * session's tabs (content/submitGuard.ts) hold any submit of a form with a password,
 * payment-card or one-time-code field. After the call, the user is asked in the side panel;
 * "Allow" submits the held form exactly once, "Deny" or no answer fails the call with
 * USER_DENIED and nothing is submitted.
 *
 * The guard is armed only while a call of the session runs (counted per tab, since calls of
 * several sessions never share a tab but a call may still be finishing when the next starts),
 * so the user's own submits outside the agent's calls are never held.
 *
 * A tool whose contract says `approval: 'script'` (browser_evaluate) is asked about before it
 * runs when its page has such a form (guardScript, applied in the registry loop).
 */
import { BridgeError, ErrorCode, type ToolName } from '@browser-agent/protocol';
import type { GuardMessage, SecretFieldKind, SubmitQuestion } from '../shared/messages';
import { ApprovalQuestions, type Verdict } from './approvalQuestions';
import type { PendingResponse } from './dispatcher';
import type { CdpClient } from './cdp';
import type { Handler } from './handlerContext';
import { settle } from './loading/settle';
import { watchNavigation } from './loading/navigationWatch';

/** The answer must reach the agent before its call's own deadline does. */
const ANSWER_MARGIN_MS = 1_500;

interface HeldSubmit {
  tabId: number;
  frameId: number;
  id: number;
  targetOrigin: string;
  fields: SecretFieldKind[];
}

export interface SubmitApprovalDeps {
  cdpFor(tabId: number): Promise<CdpClient>;
  /** Every change of the open questions, for the panels and the toolbar badge. */
  questionsChanged(questions: SubmitQuestion[]): void;
}

/** One agent call with the setting on. */
export interface GuardedCall {
  sessionId: string;
  /** The session's tabs when the call started; their guards are armed while it runs. */
  tabIds: readonly number[];
  client: string;
  limitMs: number;
}

export class SubmitApprovals {
  readonly #deps: SubmitApprovalDeps;
  readonly #questions: ApprovalQuestions;
  readonly #armed = new Map<number, { calls: number; forMs: number }>();
  readonly #held = new Map<number, HeldSubmit[]>();
  /** Answer deadlines of each session's guarded calls (queued or running), oldest first. */
  readonly #deadlines = new Map<string, number[]>();

  constructor(deps: SubmitApprovalDeps) {
    this.#deps = deps;
    this.#questions = new ApprovalQuestions((questions) => deps.questionsChanged(questions));
  }

  /** What a guard that starts in this tab (a new document) should do. */
  armState(tabId: number): GuardMessage {
    const armed = this.#armed.get(tabId);
    return { kind: 'guard_arm', armed: armed !== undefined, forMs: armed?.forMs ?? 0 };
  }

  questions(): SubmitQuestion[] {
    return this.#questions.all();
  }

  answer(id: string, allow: boolean): void {
    this.#questions.answer(id, allow);
  }

  /**
   * browser_evaluate runs the agent's own code in the page: besides the submits the guards
   * hold, it can read a form's fields and send them with fetch, or undo the main-world hook.
   * So with the setting on, a script for a page with a secret-field form is asked about first.
   */
  guardScript<N extends ToolName>(inner: Handler<N>): Handler<N> {
    return async (args, ctx) => {
      // Calls of a session run in order: the running one is the oldest.
      const deadline = this.#deadlines.get(ctx.sessionId)?.[0];
      if (deadline !== undefined) await this.#approveScript(await ctx.currentTab(), ctx, deadline);
      return inner(args, ctx);
    };
  }

  async #approveScript(
    tab: { tabId: number },
    ctx: { client: { name: string } },
    deadline: number,
  ): Promise<void> {
    const probe: GuardMessage = { kind: 'guard_probe' };
    const answer: unknown = await chrome.tabs.sendMessage(tab.tabId, probe).catch(() => undefined);
    if (!Array.isArray(answer) || answer.length === 0) return;
    // The guard's own answer: the secret-field kinds of the first frame that has some.
    const fields = answer as SecretFieldKind[];
    const verdict = await this.#questions.ask(
      tab.tabId,
      { kind: 'script', client: ctx.client.name, targetOrigin: '', fields },
      deadline - Date.now(),
    );
    if (verdict === 'allow') return;
    const what = `a script on a page with a ${fields.join(', ')} field`;
    throw new BridgeError(
      ErrorCode.USER_DENIED,
      verdict === 'deny'
        ? `The user denied running ${what}; it did not run.`
        : `The user did not answer in time whether to run ${what}; it did not run.`,
      'Use the page tools (browser_snapshot, browser_click, browser_type) instead, or ask the user to allow the script in the Browser Agent side panel when you retry.',
    );
  }

  /** A guard held a submit. One held outside any call (a late message) is refused. */
  held(tabId: number, frameId: number, submit: Omit<HeldSubmit, 'tabId' | 'frameId'>): void {
    const entry = { ...submit, tabId, frameId };
    if (!this.#armed.has(tabId)) {
      void this.#release(entry, false);
      return;
    }
    this.#held.set(tabId, [...(this.#held.get(tabId) ?? []), entry]);
  }

  /** Runs one agent call with the guards of `tabIds` armed, then settles what they held. */
  async guardCall(
    call: GuardedCall,
    run: () => Promise<PendingResponse>,
  ): Promise<PendingResponse> {
    const { sessionId, tabIds, client, limitMs } = call;
    const deadline = Date.now() + limitMs - ANSWER_MARGIN_MS;
    this.#deadlines.set(sessionId, [...(this.#deadlines.get(sessionId) ?? []), deadline]);
    await this.#arm(tabIds, limitMs);
    let pending: PendingResponse;
    try {
      pending = await run();
    } finally {
      const left = (this.#deadlines.get(sessionId) ?? []).filter((d) => d !== deadline);
      if (left.length > 0) this.#deadlines.set(sessionId, left);
      else this.#deadlines.delete(sessionId);
      await this.#disarm(tabIds);
    }
    const held = tabIds.flatMap((tabId) => this.#take(tabId));
    const [first, ...rest] = held;
    // One question per call: further submits it caused are dropped, never sent unasked.
    for (const extra of rest) void this.#release(extra, false);
    const { response } = pending;
    if (first === undefined) return pending;
    if (response.failed) {
      await this.#release(first, false);
      return pending;
    }
    const verdict = await this.#ask(first, client, deadline - Date.now());
    if (verdict !== 'allow') {
      await this.#release(first, false);
      response.fail(denied(first, verdict));
      return pending;
    }
    response.addText(await this.#submit(first));
    return pending;
  }

  async #arm(tabIds: readonly number[], forMs: number): Promise<void> {
    await Promise.all(
      tabIds.map(async (tabId) => {
        const armed = this.#armed.get(tabId);
        if (armed !== undefined) {
          armed.calls++;
          return;
        }
        this.#armed.set(tabId, { calls: 1, forMs });
        await tell(tabId, { kind: 'guard_arm', armed: true, forMs });
      }),
    );
  }

  async #disarm(tabIds: readonly number[]): Promise<void> {
    await Promise.all(
      tabIds.map(async (tabId) => {
        const armed = this.#armed.get(tabId);
        if (armed === undefined) return;
        if (--armed.calls > 0) return;
        this.#armed.delete(tabId);
        await tell(tabId, { kind: 'guard_arm', armed: false, forMs: 0 });
      }),
    );
  }

  #take(tabId: number): HeldSubmit[] {
    const list = this.#held.get(tabId) ?? [];
    this.#held.delete(tabId);
    return list;
  }

  #ask(submit: HeldSubmit, client: string, waitMs: number): Promise<Verdict> {
    const { targetOrigin, fields } = submit;
    return this.#questions.ask(
      submit.tabId,
      { kind: 'submit', client, targetOrigin, fields },
      waitMs,
    );
  }

  /** Releases the allowed submit and waits for what it starts, as an action would. */
  async #submit(submit: HeldSubmit): Promise<string> {
    const what = `a form with a ${submit.fields.join(', ')} field to ${submit.targetOrigin}`;
    const cdp = await this.#deps.cdpFor(submit.tabId);
    const watch = await watchNavigation(cdp);
    if (!(await this.#release(submit, true))) {
      watch.dispose();
      return `The user allowed submitting ${what}, but the form was gone (the page changed); nothing was submitted.`;
    }
    const outcome = await settle(cdp, watch);
    return `The user allowed submitting ${what}; it was submitted once${
      outcome.navigated ? ' and the page navigated' : ''
    }. Call browser_snapshot to see the page now.`;
  }

  /** True when the guard submitted the form again. */
  async #release(submit: HeldSubmit, allow: boolean): Promise<boolean> {
    const message: GuardMessage = { kind: 'guard_release', id: submit.id, allow };
    const submitted: unknown = await chrome.tabs
      .sendMessage(submit.tabId, message, { frameId: submit.frameId })
      .catch(() => false);
    return submitted === true;
  }
}

/** To every frame of the tab; a tab without our content script (e.g. about:blank) ignores it. */
async function tell(tabId: number, message: GuardMessage): Promise<void> {
  await chrome.tabs.sendMessage(tabId, message).catch(() => undefined);
}

function denied(submit: HeldSubmit, verdict: Exclude<Verdict, 'allow'>): BridgeError {
  const what = `a form with a ${submit.fields.join(', ')} field to ${submit.targetOrigin}`;
  return new BridgeError(
    ErrorCode.USER_DENIED,
    verdict === 'deny'
      ? `The user denied submitting ${what}; nothing was submitted.`
      : `The user did not answer in time whether to submit ${what}; nothing was submitted.`,
    'Do not try to submit it another way. Ask the user to submit it themselves, or to allow it in the Browser Agent side panel when you retry.',
  );
}
