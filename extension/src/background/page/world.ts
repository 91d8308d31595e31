/**
 * The isolated world each frame's page model lives in. Page.createIsolatedWorld makes a new
 * world on every call, so the context id is kept per frame and reused: the element ids the
 * model hands out (and so the refs) live exactly as long as that world, which ends when the
 * frame navigates. A context id that no longer answers is replaced once.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import type { TabState } from '../tabStates';
import type { FrameAddress, WorldAddress } from './wire';
import { INSTALLED_PAGE_MODEL, MODEL_MISSING, PAGE_MODEL } from './pageScript';

const WORLD_NAME = 'browser-agent';

export type { FrameAddress, WorldAddress } from './wire';

export const worldKey = (frame: FrameAddress): string =>
  `${frame.sessionId ?? ''}/${frame.frameId}`;

async function contextFor(
  cdp: CdpClient,
  state: TabState,
  frame: FrameAddress,
  fresh: boolean,
): Promise<number> {
  const key = worldKey(frame);
  const known = state.worlds.get(key);
  if (known !== undefined && !fresh) return known;
  const { executionContextId } = await cdp.send(
    'Page.createIsolatedWorld',
    { frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: false },
    frame.sessionId,
  );
  state.worlds.set(key, executionContextId);
  return executionContextId;
}

/** Thrown when the world a ref was made in is gone (the frame navigated or closed). */
export class WorldGone extends Error {}

/** Where a page-model call goes: the tab's connection, and what the tab knows of its worlds. */
export interface ModelTarget {
  readonly cdp: CdpClient;
  readonly state: Pick<TabState, 'modelWorlds'>;
}

/**
 * Evaluates `model.<call>` in the world: by name where the model was installed before, else with
 * the whole model script (which installs it). A world that answers MODEL_MISSING (its id now
 * names another context) is sent the whole script.
 */
async function evaluateModel(
  { cdp, state }: ModelTarget,
  world: WorldAddress,
  call: string,
  returnByValue: boolean,
): Promise<Protocol.Runtime.EvaluateResponse> {
  const key = worldKey(world);
  const send = (model: string): Promise<Protocol.Runtime.EvaluateResponse> =>
    cdp.send(
      'Runtime.evaluate',
      { expression: `${model}.${call}`, contextId: world.contextId, returnByValue },
      world.sessionId,
    );
  if (state.modelWorlds.get(key) === world.contextId) {
    const reply = await send(INSTALLED_PAGE_MODEL);
    if (reply.result.value !== MODEL_MISSING) return reply;
    state.modelWorlds.delete(key);
  }
  const reply = await send(PAGE_MODEL);
  if (reply.exceptionDetails === undefined) state.modelWorlds.set(key, world.contextId);
  return reply;
}

/** Runs `model.<call>` in the given world and returns its JSON-able value. */
export async function callModel(
  target: ModelTarget,
  world: WorldAddress,
  call: string,
): Promise<unknown> {
  const reply = await evaluateModel(target, world, call, true).catch((err: unknown) => {
    throw new WorldGone(err instanceof Error ? err.message : String(err));
  });
  if (reply.exceptionDetails !== undefined) {
    throw new Error(
      `Page model failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`,
    );
  }
  const value: unknown = reply.result.value;
  return value;
}

/**
 * Sends `model.<call>`, a call that answers a promise, to a world the model was installed in, and
 * answers its value once it settles; undefined when the world no longer holds the model or the
 * call failed. There is no install-and-retry here: its caller has the usual way to fall back on.
 */
export async function awaitInstalledModel(
  cdp: CdpClient,
  world: WorldAddress,
  call: string,
): Promise<unknown> {
  const reply = await cdp
    .send(
      'Runtime.evaluate',
      {
        expression: `${INSTALLED_PAGE_MODEL}.${call}`,
        contextId: world.contextId,
        returnByValue: true,
        awaitPromise: true,
      },
      world.sessionId,
    )
    .catch(() => undefined);
  if (reply === undefined || reply.exceptionDetails !== undefined) return undefined;
  const value: unknown = reply.result.value;
  return value === MODEL_MISSING ? undefined : value;
}

/** Runs `model.<call>` in the frame's current world, making the world when it has none (or lost it). */
export async function callInFrame(
  cdp: CdpClient,
  state: TabState,
  frame: FrameAddress,
  call: string,
): Promise<{ world: WorldAddress; value: unknown }> {
  for (const fresh of [false, true]) {
    const contextId = await contextFor(cdp, state, frame, fresh);
    const world = { ...frame, contextId };
    try {
      return { world, value: await callModel({ cdp, state }, world, call) };
    } catch (err) {
      if (!(err instanceof WorldGone) || fresh) throw err;
    }
  }
  throw new WorldGone('unreachable');
}

/**
 * Evaluates `expression` in the frame's page-model world (the page cannot patch what it reads
 * there); the id of the object it returns, undefined when it is no object or the frame is gone.
 */
export async function objectInFrame(
  cdp: CdpClient,
  state: TabState,
  frame: FrameAddress,
  expression: string,
): Promise<string | undefined> {
  for (const fresh of [false, true]) {
    const contextId = await contextFor(cdp, state, frame, fresh).catch(() => undefined);
    if (contextId === undefined) return undefined;
    const reply = await cdp
      .send('Runtime.evaluate', { expression, contextId }, frame.sessionId)
      .catch(() => undefined);
    if (reply !== undefined) return reply.result.objectId;
  }
  return undefined;
}

/** The page-side object of one element of a world, as a remote object id of that world. */
export async function elementObject(
  target: ModelTarget,
  world: WorldAddress,
  localId: number,
): Promise<string | undefined> {
  const reply = await evaluateModel(target, world, `element(${localId})`, false).catch(
    () => undefined,
  );
  return reply?.result.objectId;
}
