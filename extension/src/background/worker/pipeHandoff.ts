/**
 * A launched browser's hand-off over the debugging pipe (#26 item 3). The daemon that started the
 * browser attaches to this worker's target as soon as it appears and calls the entry point below
 * with `Runtime.evaluate`: the link then comes up as soon as this worker has run, where before it
 * waited for the relay page to load and send the same in a message (40-50 ms after the worker
 * ran), and the page, loading beside the worker, delayed the worker's own start by 60-100 ms.
 *
 * Who can call it: only code that runs in this worker's realm, that is this extension's own code
 * and a DevTools client attached to the worker. Pages, content scripts and other extensions
 * cannot reach a service worker's globals, and chrome.debugger cannot attach to an extension's
 * worker; a DevTools client of the browser (the launching daemon's pipe, or a person's
 * --remote-debugging-port) drives every tab already, so it gains nothing here. The argument is
 * still taken only in exactly the hand-off's shape.
 *
 * The daemon's evaluate may run before this worker's script does (the worker's context exists
 * while its modules load): it then leaves its argument and its promise's resolver under
 * WAITING_KEY, which the script takes when it runs. Either way the call runs once.
 */
import { z } from '@browser-agent/protocol';
import { DEVTOOLS_TARGET_ID, type LaunchHandoff } from '../../shared/messages';
import { applyHandoff, handoffSchema, type HandoffDeps } from './launchHandoff';

/** The entry point's name on the worker's global object; the daemon's side is pipeHandoff.ts. */
export const PIPE_HANDOFF_KEY = '__browserAgentPipeHandoff';
/** Where an evaluate that came before the script leaves its call. */
export const WAITING_KEY = '__browserAgentPipeHandoffWaiting';

const pipeHandoffSchema = handoffSchema.extend({
  /** The startup tab's DevTools target id (worker/spareTab.ts), when it is still there. */
  spareTarget: z.string().regex(DEVTOOLS_TARGET_ID).nullable(),
});

export interface PipeHandoffDeps extends Omit<HandoffDeps, 'where'> {
  /** Gives the startup tab to the first session (SpareTab.adopt). */
  adoptSpareTab(targetId: string): Promise<boolean>;
}

/** Takes the daemon's hand-off; false (and nothing done) when it is not in the right shape. */
export async function takePipeHandoff(raw: unknown, deps: PipeHandoffDeps): Promise<boolean> {
  const parsed = pipeHandoffSchema.safeParse(raw);
  if (!parsed.success) return false;
  const { spareTarget, ...rest } = parsed.data;
  const handoff: LaunchHandoff = rest;
  // Beside the link, not before it: the first call may come as soon as the link is up, and its
  // take() waits for this adoption (spareTab.ts).
  const adopting = spareTarget === null ? undefined : deps.adoptSpareTab(spareTarget);
  await applyHandoff(handoff, deps);
  await adopting;
  return true;
}

interface Waiting {
  handoff: unknown;
  resolve(taken: Promise<boolean>): void;
}

/** Puts the entry point on `scope` (the worker's global object) and answers a call that waited. */
export function exposePipeHandoff(
  scope: Record<string, unknown>,
  take: (raw: unknown) => Promise<boolean>,
): void {
  Object.defineProperty(scope, PIPE_HANDOFF_KEY, {
    value: (raw: unknown) => take(raw),
    configurable: false,
    writable: false,
    enumerable: false,
  });
  const waiting = scope[WAITING_KEY] as Waiting | undefined;
  delete scope[WAITING_KEY];
  if (typeof waiting?.resolve === 'function') waiting.resolve(take(waiting.handoff));
}
