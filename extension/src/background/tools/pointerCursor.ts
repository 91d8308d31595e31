/**
 * `[cursor=pointer]` in the outline: elements styled as clickable, which is how pages mark
 * custom controls that carry no role. One DOMSnapshot call gives every laid-out node's computed
 * cursor, so this costs the same on a small page and a huge one.
 */
import type { CdpClient } from '../cdp';
import type { OutlineNode } from './axOutline';

async function pointerNodes(cdp: CdpClient, sessionId?: string): Promise<Set<number>> {
  const { documents, strings } = await cdp.send(
    'DOMSnapshot.captureSnapshot',
    { computedStyles: ['cursor'] },
    sessionId,
  );
  const pointer = strings.indexOf('pointer');
  const found = new Set<number>();
  if (pointer < 0) return found;
  for (const doc of documents) {
    const { nodeIndex, styles } = doc.layout;
    for (const [i, node] of nodeIndex.entries()) {
      if (styles[i]?.[0] !== pointer) continue;
      const backendId = doc.nodes.backendNodeId?.[node];
      if (backendId !== undefined) found.add(backendId);
    }
  }
  return found;
}

/** Marks outline elements whose cursor is a pointer; a page that cannot answer gets no marks. */
export async function markPointerCursors(
  cdp: CdpClient,
  outline: readonly OutlineNode[],
): Promise<void> {
  const sessions = new Set<string | undefined>([undefined]);
  const collect = (nodes: readonly OutlineNode[]): void => {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      if (node.sessionId !== undefined) sessions.add(node.sessionId);
      collect(node.children);
    }
  };
  collect(outline);
  const bySession = new Map<string | undefined, Set<number>>();
  await Promise.all(
    [...sessions].map(async (sessionId) => {
      bySession.set(sessionId, await pointerNodes(cdp, sessionId).catch(() => new Set<number>()));
    }),
  );
  const mark = (nodes: readonly OutlineNode[]): void => {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      const ids = bySession.get(node.sessionId);
      if (node.backendNodeId !== undefined && ids?.has(node.backendNodeId) === true)
        node.pointer = true;
      mark(node.children);
    }
  };
  mark(outline);
}
