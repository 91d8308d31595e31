/**
 * Out-of-process iframes (cross-site frames under site isolation) are separate debugger
 * targets. Auto-attaching with flatten gives each a child session on the tab's own connection;
 * auto-attaching again inside each child session reaches an out-of-process iframe nested in
 * another one. The attach hook keeps the tab's list of them, and where each one's owner element
 * lives, current for the snapshot.
 */
import type { CdpClient } from '../cdp';
import type { AttachHook } from '../handlerContext';

function autoAttach(cdp: CdpClient, sessionId?: string): Promise<unknown> {
  return (
    cdp
      .send(
        'Target.setAutoAttach',
        { autoAttach: true, flatten: true, waitForDebuggerOnStart: false },
        sessionId,
      )
      // Older Chrome refuses auto-attach through chrome.debugger: cross-site frames stay empty.
      .catch(() => undefined)
  );
}

export const trackChildFrames: AttachHook = async (tab) => {
  const { cdp, state } = tab;
  cdp.on('Target.attachedToTarget', (e, parentSession) => {
    if (e.targetInfo.type !== 'iframe') return;
    if (parentSession !== undefined && !state.childFrames.has(parentSession)) return;
    state.childFrames.set(e.sessionId, e.targetInfo.targetId);
    state.childFrameParents.set(e.sessionId, {
      sessionId: parentSession,
      frameId: e.targetInfo.parentFrameId,
    });
    void autoAttach(cdp, e.sessionId);
  });
  cdp.on('Target.detachedFromTarget', (e) => {
    state.childFrames.delete(e.sessionId);
    state.childFrameParents.delete(e.sessionId);
    for (const key of state.worlds.keys()) {
      if (key.startsWith(`${e.sessionId}/`)) state.worlds.delete(key);
    }
  });
  await autoAttach(cdp);
};
