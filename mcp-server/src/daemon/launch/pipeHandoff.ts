/**
 * The daemon's side of a launched browser's hand-off over the debugging pipe (the extension's
 * worker/pipeHandoff.ts says why and who can call it). The pairing's secret goes only down the
 * pipe, which no other process can reach (cdpPipe.ts), into the worker's own realm.
 */
import type { CdpPipe } from './cdpPipe.js';

/** The worker's entry point and its waiting slot (extension worker/pipeHandoff.ts). */
const ENTRY = '__browserAgentPipeHandoff';
const WAITING = '__browserAgentPipeHandoffWaiting';

export interface PipeHandoff {
  kind: 'launch_handoff';
  pairing: { secret: string; label: string };
  bridgePort: number;
  noBrowserPolicy: boolean;
  spareTarget: string | null;
}

/**
 * The expression evaluated in the worker: calls its entry point, or, when the worker's script
 * has not run yet, leaves the call for the script to take (and resolves when it has).
 */
export function handoffExpression(handoff: PipeHandoff): string {
  const arg = JSON.stringify(handoff);
  return `(() => {
  const entry = globalThis[${JSON.stringify(ENTRY)}];
  if (typeof entry === 'function') return entry(${arg});
  return new Promise((resolve) => { globalThis[${JSON.stringify(WAITING)}] = { handoff: ${arg}, resolve }; });
})()`;
}

/**
 * Hands the worker its link over the pipe; true once it took it. False (and nothing changed on
 * the daemon's side) when the worker refused it, did not answer within `timeoutMs` (an
 * extension of an older build has no entry point: the call waits for a script that never takes
 * it) or the target could not be attached: the relay page's hand-off is then the way.
 */
export async function handOffOverPipe(
  cdp: CdpPipe,
  workerTargetId: string,
  handoff: PipeHandoff,
  timeoutMs: number,
): Promise<boolean> {
  const attached = await cdp
    .send('Target.attachToTarget', { targetId: workerTargetId, flatten: true })
    .catch(() => undefined);
  const sessionId = attached?.['sessionId'];
  if (typeof sessionId !== 'string') return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const evaluated = cdp.send(
      'Runtime.evaluate',
      { expression: handoffExpression(handoff), awaitPromise: true, returnByValue: true },
      sessionId,
    );
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    const answer = await Promise.race([evaluated.catch(() => undefined), late]);
    const result = answer?.['result'] as { value?: unknown } | undefined;
    return result?.value === true;
  } finally {
    clearTimeout(timer);
    // Detached, the worker is as if nobody had looked: no DevTools session keeps it alive.
    void cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}
