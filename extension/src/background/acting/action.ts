/**
 * The life of one input action: refuse while a dialog is open, watch for navigation and new
 * tabs, run the action raced against a dialog opening (Input.dispatch* does not return while a
 * dialog is up), let the page settle (navigation, the requests the action started, a quiet DOM),
 * and report what happened and what changed on the page.
 */
import { BridgeError, ErrorCode, textResult, type ToolResult } from '@browser-agent/protocol';
import type { HandlerContext } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { actionReport } from './actionReport';
import { startEarlyLook } from './earlyLook';
import { assertNoDialog, dialogOpened } from '../recorders/dialogs';
import { watchNavigationAtOnce, type NavigationWatch } from '../loading/navigationWatch';
import { formatDocumentResponse, watchDocumentResponse } from '../loading/documentResponse';
import { anyRequestSince, inFlightSince } from '../recorders/networkLog';
import { changesSinceLastLook } from '../outline/tabOutline';
import { settle, waitForDomQuietAfterRequests } from '../loading/settle';
import { armLateTimers, disarmLateTimers, inputTaken } from '../loading/lateTimers';
import { waitForDownloadBegin } from '../recorders/downloads';
import { oneLine } from '../common/text';
import { delay, orAbort } from '../common/timing';

/** Requests the action started are waited for this long at most (long polls never end). */
const REQUESTS_CAP_MS = 3_000;
const POLL_MS = 10;
/** The worker adopts a popup asynchronously; give it a moment before listing tabs. */
const ADOPT_WAIT_MS = 1_000;
/** Unless the session's settings say otherwise (timeouts.actionMs). */
export const ACTION_TIMEOUT_MS = 5_000;

/**
 * The watches an action needs (navigation, the late timers it sets), set up in one round trip.
 * A tool that first resolves its target starts them while it resolves (armedWhile), so their
 * round trips overlap (#26); performAction takes them over. They start when first needed:
 * armedWhile starts them once the target's check has gone out, so the page answers the check
 * first (it takes a session's commands in order, and the action waits for the check and the
 * arming alike).
 */
/** What the arming set up: the navigation watch, and whether the page's input gate is armed. */
export interface Armed {
  watch: NavigationWatch;
  /** The late timers and their input gate are armed (lateTimers.ts armLateTimers). */
  inputGate: boolean;
}

export class ActionArming {
  readonly #tab: TabHandle;
  #watch: Promise<Armed> | undefined;
  #taken = false;

  constructor(tab: TabHandle) {
    // A dialog holds every page script: arming would wait on it (and stay armed).
    assertNoDialog(tab);
    this.#tab = tab;
  }

  /** Sends the arming's commands, once. */
  start(): Promise<Armed> {
    if (this.#watch === undefined) {
      this.#watch = Promise.all([
        watchNavigationAtOnce(this.#tab),
        armLateTimers(this.#tab.cdp),
      ]).then(([watch, inputGate]) => ({ watch, inputGate }));
      this.#watch.catch(() => undefined);
    }
    return this.#watch;
  }

  take(): Promise<Armed> {
    this.#taken = true;
    return this.start();
  }

  /** Undoes the arming when no action took it (the target could not be resolved). */
  releaseUnlessTaken(): void {
    if (this.#taken || this.#watch === undefined) return;
    void this.#watch.then(
      ({ watch }) => watch.dispose(),
      () => undefined,
    );
    disarmLateTimers(this.#tab.cdp);
  }
}

/**
 * Runs work with the action's watches set up while work prepares it (resolves its target). They
 * go out right after what work sends before its first await (a ref's check: elements/target.ts),
 * so the check, which the action needs first, is not queued behind them (#26: a type's check
 * began in the page ~6 ms after the call reached the worker, behind the arming).
 */
export async function armedWhile<T>(
  tab: TabHandle,
  work: (arming: ActionArming) => Promise<T>,
): Promise<T> {
  const arming = new ActionArming(tab);
  try {
    const working = work(arming);
    void arming.start();
    return await working;
  } finally {
    arming.releaseUnlessTaken();
  }
}

export interface ActionOptions {
  /**
   * The action is one input the page answers with input events (text inserted at once): its
   * quiet check goes out along with it instead of after the browser took it, and the page holds
   * the check until the input landed (lateTimers.ts afterInput). A round trip less (#26).
   */
  checkWithInput?: boolean;
}

export async function performAction(
  ctx: HandlerContext,
  tab: TabHandle,
  done: string,
  action: () => Promise<void>,
  arming?: ActionArming,
  options: ActionOptions = {},
): Promise<ToolResult> {
  assertNoDialog(tab);
  const { cdp } = tab;
  const startedAt = Date.now();
  const opened: string[] = [];
  const offWindowOpen = cdp.on('Page.windowOpen', (e) => opened.push(e.url));
  const { watch, inputGate } = await (arming ?? new ActionArming(tab)).take();
  // The HTTP status of a document the action navigated to (a link to a 404 page).
  const response = watchDocumentResponse(tab, watch);
  const dialog = dialogOpened(tab);
  try {
    const running = action();
    // If the dialog wins, the action finishes when the dialog closes; nothing waits for it.
    running.catch(() => undefined);
    // The report's look goes out with the quiet check (earlyLook.ts): one round trip for both.
    const quietCheck = (afterInput: boolean) => {
      const early = startEarlyLook(tab, tab.state.lastOutline !== undefined);
      const outcome = settle(cdp, watch, dialog.opened, ctx.signal, {
        quietEvent: early?.event,
        afterInput,
      });
      return { early, outcome };
    };
    // Only where the gate is armed: without it the check could look before the input landed.
    const withInput = options.checkWithInput === true && inputGate ? quietCheck(true) : undefined;
    // An action that fails or times out, or a dialog, disarms the page, which opens the gate.
    withInput?.outcome.catch(() => undefined);
    // The input itself is bounded (a page busy in a handler holds Input.dispatch* until it
    // returns); the settling that follows has its own caps.
    const limitMs = ctx.settings?.actionTimeoutMs ?? ACTION_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), limitMs);
    });
    const first = await orAbort(
      Promise.race([
        running.then(() => 'done' as const),
        dialog.opened.then(() => 'dialog' as const),
        timedOut,
      ]),
      ctx.signal,
    )
      .catch((err: unknown) => {
        watch.dispose();
        disarmLateTimers(cdp);
        throw err;
      })
      .finally(() => clearTimeout(timer));
    if (first === 'timeout') {
      watch.dispose();
      disarmLateTimers(cdp);
      throw new BridgeError(
        ErrorCode.TIMEOUT,
        `${done.replace(/\.$/, '')}: the page did not take the input within ${limitMs} ms.`,
        // The input is on its way and lands once the page is free: a blind retry would act twice.
        'The page is busy (a long script?) and the input may still land when it is done: wait with browser_wait_for, then check with browser_snapshot before you retry (or raise timeouts.actionMs).',
      );
    }
    if (first === 'dialog') {
      watch.dispose();
      disarmLateTimers(cdp);
      return textResult(`${done}\nA dialog opened; see Modal state below.`);
    }
    // A page that stopped every input event holds the check until it hears the input was taken.
    if (withInput !== undefined) inputTaken(cdp);
    const { early, outcome: settling } = withInput ?? quietCheck(false);
    const outcome = await settling;
    if (outcome.downloadAsked) await waitForDownloadBegin(tab, startedAt, ctx.signal);
    // A new document that became usable was waited for until its network and DOM were quiet
    // (waitUntilUsable): its requests are not waited for twice.
    const waitedMore =
      (!outcome.newDocument || outcome.stillLoading) &&
      (await settleRequests(tab, startedAt, ctx.signal));
    // The look shows the page as the check left it: only when nothing was waited for after it.
    const quiet =
      early !== undefined && !outcome.navigated && !waitedMore && tab.state.dialog === undefined
        ? await early.take()
        : undefined;
    // The report and the diff read the page independently; their round trips overlap.
    const readChanges = tab.state.dialog === undefined && !outcome.newDocument;
    const [report, changes] = await Promise.all([
      actionReport(cdp, done, outcome, quiet?.info),
      readChanges ? changesSinceLastLook(tab, quiet?.outline) : undefined,
    ]);
    const parts = [
      outcome.newDocument ? `${report}${formatDocumentResponse(response.latest())}` : report,
    ];
    if (opened.length > 0) parts.push(await newTabsReport(ctx, opened));
    if (tab.state.dialog === undefined) {
      if (outcome.newDocument) {
        tab.state.lastOutline = undefined;
        parts.push('A new page is shown: call browser_snapshot to see it.');
      } else if (changes !== undefined) parts.push(changes);
    }
    return textResult(parts.join('\n'));
  } finally {
    response.dispose();
    dialog.dispose();
    offWindowOpen();
  }
}

/** Waits for the requests the action started; false when it started none (nothing waited for). */
async function settleRequests(
  tab: TabHandle,
  since: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  // Not "none in flight": a handler's first fetch may be done and its next one not yet sent
  // (CI saw the click return between two awaited fetches, before the page logged its result).
  if (!anyRequestSince(tab.state, since)) return false;
  const deadline = Date.now() + REQUESTS_CAP_MS;
  while (Date.now() < deadline) {
    if (inFlightSince(tab.state, since) > 0) {
      await delay(POLL_MS, signal);
      continue;
    }
    // One window for both: the DOM check's first look comes 50 ms (settle.ts) after the last
    // answer, so the page's handlers have run; a request sent meanwhile (the next of a chain)
    // starts the wait again.
    const lookedAt = Date.now();
    await orAbort(waitForDomQuietAfterRequests(tab.cdp), signal);
    if (!anyRequestSince(tab.state, lookedAt)) return true;
  }
  return true;
}

async function newTabsReport(ctx: HandlerContext, urls: readonly string[]): Promise<string> {
  await delay(ADOPT_WAIT_MS, ctx.signal);
  const tabs = await ctx.listTabs();
  const lines = urls.map((url) => {
    const tab = tabs.find((t) => t.url === url);
    const index = tab === undefined ? '' : ` as tab ${tab.index}`;
    return `- The page opened a new tab${index}: ${oneLine(url, 500)} (browser_tabs select to use it)`;
  });
  return lines.join('\n');
}
