import { BridgeError, ErrorCode, textResult, type ToolResult } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { TabState } from '../tabStates';
import { Hint } from '../common/hints';
import { delay, within } from '../common/timing';

const DEFAULT_TIMEOUT_S = 10;
const POLL_INTERVAL_MS = 100;
const NETWORK_QUIET_MS = 500;

export const waitFor: Handler<'browser_wait_for'> = async (args, ctx) => {
  const given = [args.text, args.textGone, args.time, args.selector, args.networkIdle].filter(
    (v) => v !== undefined,
  ).length;
  if (given !== 1) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Give exactly one of text, textGone, selector, networkIdle or time (got ${given}).`,
      'For example {"text": "Saved"}, {"selector": "#done"} or {"time": 2}.',
    );
  }
  if (args.time !== undefined) {
    await delay(args.time * 1000);
    return textResult(`Waited ${args.time} s.`);
  }
  const tab = await ctx.currentTab();
  const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
  if (args.networkIdle === true) return waitForNetworkIdle(tab.state, timeoutS);
  if (args.selector !== undefined) {
    const state = args.state ?? 'visible';
    const started = Date.now();
    const met = await pollExpression(
      tab.cdp,
      selectorCheck(args.selector, state),
      true,
      timeoutS * 1000,
    );
    const what = `Selector ${JSON.stringify(args.selector)}`;
    if (!met) {
      throw new BridgeError(
        ErrorCode.TIMEOUT,
        `${what} did not become ${state} within ${timeoutS} s.`,
        Hint.waitSnapshot,
      );
    }
    return textResult(`${what} is ${state} after ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
  const appear = args.text !== undefined;
  const text = args.text ?? args.textGone ?? '';
  const started = Date.now();
  const met = await poll(tab.cdp, text, appear, timeoutS * 1000);
  const what = `Text ${JSON.stringify(text)}`;
  if (!met) {
    throw new BridgeError(
      ErrorCode.TIMEOUT,
      `${what} did not ${appear ? 'appear' : 'disappear'} within ${timeoutS} s.`,
      Hint.waitSnapshot,
    );
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return textResult(`${what} ${appear ? 'appeared' : 'is gone'} after ${seconds} s.`);
};

function selectorCheck(
  selector: string,
  state: 'attached' | 'detached' | 'visible' | 'hidden',
): string {
  const el = `document.querySelector(${JSON.stringify(selector)})`;
  const visible = `((e) => !!e && e.checkVisibility() && e.getBoundingClientRect().width > 0)(${el})`;
  switch (state) {
    case 'attached':
      return `${el} !== null`;
    case 'detached':
      return `${el} === null`;
    case 'visible':
      return visible;
    case 'hidden':
      return `!${visible}`;
  }
}

/** No request in flight for a quiet window, checked against the tab's network log. */
async function waitForNetworkIdle(state: TabState, timeoutS: number): Promise<ToolResult> {
  const started = Date.now();
  const deadline = started + timeoutS * 1000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (state.network.some((e) => !e.finished)) quietSince = Date.now();
    else if (Date.now() - quietSince >= NETWORK_QUIET_MS)
      return textResult(
        `The network is idle after ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    await delay(POLL_INTERVAL_MS);
  }
  const open = state.network.filter((e) => !e.finished).length;
  throw new BridgeError(
    ErrorCode.TIMEOUT,
    `The network did not go idle within ${timeoutS} s (${open} request(s) in flight).`,
    Hint.waitSnapshot,
  );
}

async function poll(
  cdp: CdpClient,
  text: string,
  appear: boolean,
  timeoutMs: number,
): Promise<boolean> {
  return pollExpression(cdp, textCheck(text), appear, timeoutMs);
}

function textCheck(text: string): string {
  return `(document.body ? document.body.innerText : '').includes(${JSON.stringify(text)})`;
}

async function pollExpression(
  cdp: CdpClient,
  expression: string,
  appear: boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A page mid-navigation cannot answer; that counts as "not yet" and the next poll asks again.
    const check = cdp
      .send('Runtime.evaluate', { expression, returnByValue: true })
      .catch(() => undefined);
    const remaining = Math.max(deadline - Date.now(), 0);
    const present: unknown = (await within(check, Math.max(remaining, POLL_INTERVAL_MS)))?.result
      .value;
    if (typeof present === 'boolean' && present === appear) return true;
    const now = Date.now();
    if (now >= deadline) return false;
    await delay(Math.min(POLL_INTERVAL_MS, deadline - now));
  }
}

/** The waitFor area's handlers, by tool name. */
export const waitForHandlers = {
  browser_wait_for: waitFor,
} satisfies AreaHandlers;
