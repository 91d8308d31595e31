/**
 * Out-of-process iframes (cross-site frames under site isolation) are separate debugger
 * targets. Auto-attaching with flatten gives each a child session on the tab's own connection;
 * auto-attaching again inside each child session reaches an out-of-process iframe nested in
 * another one. The attach hook keeps the tab's list of them, and where each one's owner element
 * lives, current for the snapshot.
 *
 * Children attach paused (waitForDebuggerOnStart): a frame that navigates itself, or nests a
 * frame, makes its requests through its own target, which the tab's origin guard does not see.
 * So the guard is enabled in the child's session first (state.guardChild), and only then does
 * the child run. Every auto-attached target is resumed, guarded or not, or it would hang.
 */
import type { CdpClient } from '../cdp';
import type { AttachHook } from '../tabStates';

function autoAttach(cdp: CdpClient, sessionId?: string): Promise<unknown> {
  return (
    cdp
      .send(
        'Target.setAutoAttach',
        { autoAttach: true, flatten: true, waitForDebuggerOnStart: true },
        sessionId,
      )
      // Older Chrome refuses auto-attach through chrome.debugger: cross-site frames stay empty.
      .catch(() => undefined)
  );
}

export const trackChildFrames: AttachHook = async (tab) => {
  const { cdp, state } = tab;
  cdp.on('Target.attachedToTarget', (e, parentSession) => {
    const resume = () =>
      e.waitingForDebugger
        ? cdp.send('Runtime.runIfWaitingForDebugger', undefined, e.sessionId).catch(() => undefined)
        : Promise.resolve();
    if (e.targetInfo.type !== 'iframe') {
      void resume();
      return;
    }
    if (parentSession !== undefined && !state.childFrames.has(parentSession)) {
      void resume();
      return;
    }
    state.childFrames.set(e.sessionId, e.targetInfo.targetId);
    state.childFrameParents.set(e.sessionId, {
      sessionId: parentSession,
      frameId: e.targetInfo.parentFrameId,
    });
    const guard = state.guardChild?.(e.sessionId) ?? Promise.resolve();
    // A guard that could not be enabled leaves the frame paused: better blank than unguarded.
    void guard.then(
      () => autoAttach(cdp, e.sessionId).then(resume),
      () => undefined,
    );
  });
  cdp.on('Target.detachedFromTarget', (e) => {
    state.childFrames.delete(e.sessionId);
    state.childFrameParents.delete(e.sessionId);
    for (const worlds of [state.worlds, state.modelWorlds]) {
      for (const key of worlds.keys()) if (key.startsWith(`${e.sessionId}/`)) worlds.delete(key);
    }
  });
  await autoAttach(cdp);
};
