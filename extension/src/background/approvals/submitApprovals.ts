/**
 * Ask-before-submit (issue #7, opt-in): while an agent's call runs, the submit guards of the
 * session's tabs (content/submitGuard.ts) hold any submit of a form with a password,
 * payment-card or one-time-code field. After the call, the user is asked in the side panel;
 * "Allow" submits the held form exactly once, "Deny" fails the call with USER_DENIED (no answer:
 * APPROVAL_TIMEOUT) and nothing is submitted.
 *
 * Issue #19's irreversible-action gate rides on the same guards: armed with `irreversible`, they
 * also hold a submit or click that looks like buying, sending, deleting, creating an account,
 * changing a password or downloading (content/irreversible.ts), asked about the same way.
 *
 * The guard is armed only while a call of the session runs (counted per tab, since calls of
 * several sessions never share a tab but a call may still be finishing when the next starts),
 * so the user's own submits outside the agent's calls are never held.
 *
 * A tool whose contract says `approval: 'script'` (browser_evaluate) is asked about before it
 * runs when its page has such a form (guardScript, applied in the registry loop).
 */
import { BridgeError, ErrorCode, type ToolName } from '@browser-agent/protocol';
import type { GuardMessage, IrreversibleKind, SecretFieldKind } from '../../shared/messages';
import type { ApprovalQuestions, Verdict } from './approvalQuestions';
import type { PendingResponse } from '../dispatcher';
import type { CdpClient } from '../cdp';
import type { Handler } from '../handlerContext';
import { friendlyClientName } from '../../shared/clientNames';
import { settle } from '../loading/settle';
import { watchNavigation } from '../loading/navigationWatch';

/** The answer must reach the agent before its call's own deadline does. */
const ANSWER_MARGIN_MS = 1_500;

interface HeldSubmit {
  tabId: number;
  frameId: number;
  id: number;
  targetOrigin: string;
  fields: SecretFieldKind[];
  action?: 'submit' | 'click' | undefined;
  irreversible?: IrreversibleKind[] | undefined;
  label?: string | undefined;
}

export interface SubmitApprovalDeps {
  cdpFor(tabId: number): Promise<CdpClient>;
  /** The open questions, shared with the permission gate (one per agent at a time). */
  questions: ApprovalQuestions;
}

/** One agent call whose tabs' guards hold something. */
export interface GuardedCall {
  sessionId: string;
  /** The session's tabs when the call started; their guards are armed while it runs. */
  tabIds: readonly number[];
  client: string;
  limitMs: number;
  /** Hold submits of forms with a secret field (askBeforeSecretSubmit). */
  secret: boolean;
  /** Hold irreversible-looking submits and clicks (the permission mode, a sensitive site). */
  irreversible: boolean;
  /** Why irreversible actions are asked about, for the question. */
  why?: string;
  /** True when the user allowed this very call already (ask mode): no second question. */
  allowedOnce?: () => boolean;
  /**
   * Aborts when the call ends another way (cancelled, timed out, its session gone): its
   * question closes everywhere and the held submit is dropped, never sent (issue #25).
   */
  signal?: AbortSignal | undefined;
}

export class SubmitApprovals {
  readonly #deps: SubmitApprovalDeps;
  readonly #questions: ApprovalQuestions;
  readonly #armed = new Map<
    number,
    { calls: number; forMs: number; secret: boolean; irreversible: boolean }
  >();
  readonly #held = new Map<number, HeldSubmit[]>();
  /** Answer deadlines of each session's guarded calls (queued or running), oldest first. */
  readonly #deadlines = new Map<string, number[]>();

  constructor(deps: SubmitApprovalDeps) {
    this.#deps = deps;
    this.#questions = deps.questions;
  }

  /** What a guard that starts in this tab (a new document) should do. */
  armState(tabId: number): GuardMessage {
    const armed = this.#armed.get(tabId);
    return {
      kind: 'guard_arm',
      armed: armed !== undefined,
      forMs: armed?.forMs ?? 0,
      secret: armed?.secret ?? false,
      irreversible: armed?.irreversible ?? false,
    };
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
    ctx: { client: { name: string }; sessionId: string; signal?: AbortSignal | undefined },
    deadline: number,
  ): Promise<void> {
    const probe: GuardMessage = { kind: 'guard_probe' };
    const answer: unknown = await chrome.tabs.sendMessage(tab.tabId, probe).catch(() => undefined);
    if (!Array.isArray(answer) || answer.length === 0) return;
    // The guard's own answer: the secret-field kinds of the first frame that has some.
    const fields = answer as SecretFieldKind[];
    const { verdict } = await this.#questions.ask(
      tab.tabId,
      {
        kind: 'script',
        sessionId: ctx.sessionId,
        client: friendlyClientName(ctx.client.name),
        targetOrigin: '',
        fields,
      },
      deadline,
      ctx.signal,
    );
    if (verdict === 'allow') return;
    const what = `a script on a page with a ${fields.join(', ')} field`;
    if (verdict === 'timeout') throw unanswered(`whether to run ${what}; it did not run`);
    throw new BridgeError(
      ErrorCode.USER_DENIED,
      `The user denied running ${what}; it did not run.`,
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
    const { sessionId, tabIds, limitMs } = call;
    const deadline = Date.now() + limitMs - ANSWER_MARGIN_MS;
    if (call.secret)
      this.#deadlines.set(sessionId, [...(this.#deadlines.get(sessionId) ?? []), deadline]);
    await this.#arm(tabIds, limitMs, call.secret, call.irreversible);
    let pending: PendingResponse;
    try {
      pending = await run();
    } finally {
      const left = (this.#deadlines.get(sessionId) ?? []).filter((d) => d !== deadline);
      if (left.length > 0) this.#deadlines.set(sessionId, left);
      else this.#deadlines.delete(sessionId);
      await this.#disarm(tabIds);
    }
    // An irreversible-looking action the user allowed by name in this call is not asked again.
    const held = tabIds
      .flatMap((tabId) => this.#take(tabId))
      .filter((h) => {
        if (h.fields.length > 0 || call.allowedOnce?.() !== true) return true;
        void this.#release(h, true);
        return false;
      });
    const [first, ...rest] = held;
    // One question per call: further submits it caused are dropped, never sent unasked.
    for (const extra of rest) void this.#release(extra, false);
    const { response } = pending;
    if (first === undefined) return pending;
    if (response.failed) {
      await this.#release(first, false);
      return pending;
    }
    const verdict = await this.#ask(first, call, deadline);
    if (verdict !== 'allow' || call.signal?.aborted === true) {
      await this.#release(first, false);
      // The caller has its answer (CANCELLED, TIMEOUT) already; this one says the same.
      const { signal } = call;
      response.fail(
        signal?.aborted === true
          ? signal.reason
          : denied(first, verdict === 'allow' ? 'timeout' : verdict),
      );
      return pending;
    }
    response.addText(await this.#submit(first));
    return pending;
  }

  async #arm(
    tabIds: readonly number[],
    forMs: number,
    secret: boolean,
    irreversible: boolean,
  ): Promise<void> {
    await Promise.all(
      tabIds.map(async (tabId) => {
        const armed = this.#armed.get(tabId);
        if (armed !== undefined) {
          armed.calls++;
          if (armed.secret === secret && armed.irreversible === irreversible) return;
          armed.secret ||= secret;
          armed.irreversible ||= irreversible;
        } else this.#armed.set(tabId, { calls: 1, forMs, secret, irreversible });
        await tell(tabId, this.armState(tabId));
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

  async #ask(submit: HeldSubmit, call: GuardedCall, deadline: number): Promise<Verdict> {
    const { targetOrigin, fields } = submit;
    const { sessionId, client } = call;
    const irreversible = submit.irreversible ?? [];
    const parts =
      fields.length > 0 || irreversible.length === 0
        ? { kind: 'submit' as const, sessionId, client, targetOrigin, fields }
        : {
            kind: 'irreversible' as const,
            sessionId,
            client,
            targetOrigin,
            fields,
            text: `Let ${client} ${irreversible.join(' / ')}: ${describe(submit)}?`,
            why: `It looks like it cannot be undone (${irreversible.join(', ')}). ${call.why ?? ''}`.trim(),
          };
    const answer = await this.#questions.ask(submit.tabId, parts, deadline, call.signal);
    return answer.verdict;
  }

  /** Releases the allowed submit and waits for what it starts, as an action would. */
  async #submit(submit: HeldSubmit): Promise<string> {
    const what = describe(submit);
    const cdp = await this.#deps.cdpFor(submit.tabId);
    const watch = await watchNavigation(cdp);
    if (!(await this.#release(submit, true))) {
      watch.dispose();
      return `The user allowed ${what}, but it was gone (the page changed); nothing was sent.`;
    }
    const outcome = await settle(cdp, watch);
    const done = submit.action === 'click' ? 'it was clicked once' : 'it was submitted once';
    return `The user allowed ${what}; ${done}${
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

/** What was held, in words; the label is the page's and is quoted, never obeyed. */
function describe(submit: HeldSubmit): string {
  const label = submit.label ? ` “${submit.label.slice(0, 80)}”` : '';
  if (submit.fields.length > 0)
    return `submitting a form with a ${submit.fields.join(', ')} field to ${submit.targetOrigin}`;
  if (submit.action === 'click') return `clicking${label} on ${submit.targetOrigin}`;
  return `submitting${label} to ${submit.targetOrigin}`;
}

function denied(submit: HeldSubmit, verdict: Exclude<Verdict, 'allow'>): BridgeError {
  const what = describe(submit);
  const nothing = submit.action === 'click' ? 'it was not clicked' : 'nothing was submitted';
  if (verdict === 'timeout') return unanswered(`about ${what}; ${nothing}`);
  const act = submit.action === 'click' ? 'do' : 'submit';
  return new BridgeError(
    ErrorCode.USER_DENIED,
    `The user denied ${what}; ${nothing}.`,
    `Do not try to ${act} it another way. Ask the user to ${act} it themselves, or to allow it in the Browser Agent side panel when you retry.`,
  );
}

/** No answer within the call's limit: never a hang, and the agent learns what to do. */
export function unanswered(what: string): BridgeError {
  return new BridgeError(
    ErrorCode.APPROVAL_TIMEOUT,
    `The user did not answer in time ${what}.`,
    'The user may be away from the browser. Tell them a question waits in the Browser Agent side panel (or on the tab), then retry; answering "for the rest of this task" or "on this site" avoids the next question.',
  );
}
