/**
 * Click listeners, for `[cursor=pointer]` on custom controls whose cursor says nothing. Listeners
 * a page adds with addEventListener are invisible from the model's isolated world, so the worker
 * lists them with DOMDebugger.getEventListeners over the whole document (one call) and hands the
 * elements to the model before it walks. Delegated listeners (on the document or body) are not
 * marks: they say nothing about which element is clickable.
 */
import type { CdpClient } from '../cdp';
import { PAGE_MODEL } from './page/pageScript';
import type { WorldAddress } from './pageWorld';

const CLICK_EVENTS: ReadonlySet<string> = new Set([
  'click',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
]);

/** Bounds the work on pages that bind a listener to every row. */
const MAX_MARKED = 200;

export async function markClickListeners(cdp: CdpClient, world: WorldAddress): Promise<void> {
  const { sessionId, contextId } = world;
  const doc = await cdp.send('Runtime.evaluate', { expression: 'document', contextId }, sessionId);
  const docId = doc.result.objectId;
  if (docId === undefined) return;
  const handles: string[] = [docId];
  try {
    const { listeners } = await cdp.send(
      'DOMDebugger.getEventListeners',
      { objectId: docId, depth: -1, pierce: true },
      sessionId,
    );
    const nodes = new Set<number>();
    for (const listener of listeners) {
      if (CLICK_EVENTS.has(listener.type) && listener.backendNodeId !== undefined)
        nodes.add(listener.backendNodeId);
    }
    const objects = await Promise.all(
      [...nodes].slice(0, MAX_MARKED).map((backendNodeId) =>
        cdp
          .send('DOM.resolveNode', { backendNodeId, executionContextId: contextId }, sessionId)
          .then(
            (r) => r.object.objectId,
            () => undefined,
          ),
      ),
    );
    const found = objects.filter((id) => id !== undefined);
    handles.push(...found);
    if (found.length === 0) return;
    await cdp.send(
      'Runtime.callFunctionOn',
      {
        objectId: docId,
        functionDeclaration: `function (...elements) { ${PAGE_MODEL}.markClickable(elements.filter((e) => e.nodeType === 1 && e !== this.body && e !== this.documentElement)); }`,
        arguments: found.map((objectId) => ({ objectId })),
      },
      sessionId,
    );
  } finally {
    for (const objectId of handles) {
      void cdp.send('Runtime.releaseObject', { objectId }, sessionId).catch(() => undefined);
    }
  }
}
