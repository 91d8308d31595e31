/**
 * Out-of-process iframes (cross-site frames under site isolation) are separate debugger
 * targets. Auto-attaching with flatten gives each a child session on the tab's own connection;
 * the attach hook keeps the tab's list of them current for the snapshot.
 */
import type { AttachHook } from '../handlerContext';

export const trackChildFrames: AttachHook = async (tab) => {
  const { cdp, state } = tab;
  cdp.on('Target.attachedToTarget', (e, sessionId) => {
    if (sessionId !== undefined || e.targetInfo.type !== 'iframe') return;
    state.childFrames.set(e.sessionId, e.targetInfo.targetId);
  });
  cdp.on('Target.detachedFromTarget', (e) => {
    state.childFrames.delete(e.sessionId);
  });
  await cdp
    .send('Target.setAutoAttach', {
      autoAttach: true,
      flatten: true,
      waitForDebuggerOnStart: false,
    })
    // Older Chrome refuses auto-attach through chrome.debugger: cross-site frames stay empty.
    .catch(() => undefined);
};
