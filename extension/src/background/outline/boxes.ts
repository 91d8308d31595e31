/**
 * Bounding boxes for a snapshot (browser_snapshot `boxes`): every element of the outline that
 * has a ref (or owns a frame) gets its box in CSS px of the tab's viewport, as
 * Element.getBoundingClientRect gives it, moved by where its frame's content starts.
 */
import type { TabHandle } from '../tabStates';
import { callModel, type WorldAddress } from '../page/world';
import { elementKey, type OutlineElement, type OutlineNode } from './nodes';

interface WorldNodes {
  world: WorldAddress;
  nodes: OutlineElement[];
}

export async function addBoxes(tab: TabHandle, outline: readonly OutlineNode[]): Promise<void> {
  const byWorld = new Map<string, WorldNodes>();
  const collect = (nodes: readonly OutlineNode[]): void => {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      if (node.world !== undefined && node.localId !== undefined) {
        const key = elementKey(node.world, 0);
        const entry = byWorld.get(key) ?? { world: node.world, nodes: [] };
        entry.nodes.push(node);
        byWorld.set(key, entry);
      }
      collect(node.children);
    }
  };
  collect(outline);
  /** Raw boxes in each element's own frame, and where a frame owner's content starts. */
  const raw = new Map<OutlineElement, number[]>();
  await Promise.all(
    [...byWorld.values()].map(async ({ world, nodes }) => {
      const ids = nodes.map((n) => n.localId ?? 0);
      const answer = await callModel(tab, world, `boxes(${JSON.stringify(ids)})`).catch(
        () => undefined,
      );
      if (!Array.isArray(answer)) return;
      nodes.forEach((node, i) => {
        const box: unknown = answer[i];
        if (Array.isArray(box) && box.every((v) => typeof v === 'number')) raw.set(node, box);
      });
    }),
  );
  const place = (nodes: readonly OutlineNode[], dx: number, dy: number): void => {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      const box = raw.get(node);
      if (box !== undefined) {
        const [x = 0, y = 0, width = 0, height = 0, contentX, contentY] = box;
        node.box = [x + dx, y + dy, width, height];
        if (node.framed && contentX !== undefined && contentY !== undefined) {
          place(node.children, contentX + dx, contentY + dy);
          continue;
        }
      }
      place(node.children, dx, dy);
    }
  };
  place(outline, 0, 0);
}
