import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { Handler } from '../handlerContext';
import { Hint } from './hints';
import { delay, within } from './timing';

const DEFAULT_TIMEOUT_S = 10;
const POLL_INTERVAL_MS = 100;

export const waitFor: Handler<'browser_wait_for'> = async (args, ctx) => {
  const given = [args.text, args.textGone, args.time].filter((v) => v !== undefined).length;
  if (given !== 1) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Give exactly one of text, textGone or time (got ${given}).`,
      'For example {"text": "Saved"} or {"time": 2}.',
    );
  }
  if (args.time !== undefined) {
    await delay(args.time * 1000);
    return textResult(`Waited ${args.time} s.`);
  }
  const tab = await ctx.currentTab();
  const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
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

async function poll(
  cdp: CdpClient,
  text: string,
  appear: boolean,
  timeoutMs: number,
): Promise<boolean> {
  const expression = `(document.body ? document.body.innerText : '').includes(${JSON.stringify(text)})`;
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
