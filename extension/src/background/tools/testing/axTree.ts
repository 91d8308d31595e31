/** Builds Accessibility.getFullAXTree answers from a readable nested spec, for outline tests. */
import type { Protocol } from 'devtools-protocol';
import type { AXNode } from '../axNode';

type AXPropertyName = Protocol.Accessibility.AXPropertyName;

export interface AXSpec {
  role: string;
  name?: string;
  value?: string | number;
  ignored?: boolean;
  /** Defaults to a fresh id; null for nodes Chrome gives none (InlineTextBox). */
  backendId?: number | null;
  props?: Partial<Record<AXPropertyName, string | number | boolean>>;
  children?: AXSpec[];
}

export function axTree(root: AXSpec): AXNode[] {
  const nodes: AXNode[] = [];
  let nextId = 1;
  const add = (spec: AXSpec, parentId: string | undefined): string => {
    const id = String(nextId++);
    const node: AXNode = {
      nodeId: id,
      ignored: spec.ignored ?? false,
      role: { type: 'role', value: spec.role },
      name: { type: 'computedString', value: spec.name ?? '' },
      properties: Object.entries(spec.props ?? {}).map(([name, value]) => ({
        name: name as AXPropertyName,
        value: { type: typeof value === 'boolean' ? 'boolean' : 'string', value },
      })),
    };
    if (parentId !== undefined) node.parentId = parentId;
    if (spec.value !== undefined) node.value = { type: 'string', value: spec.value };
    if (spec.backendId !== null) node.backendDOMNodeId = spec.backendId ?? 1000 + Number(id);
    nodes.push(node);
    node.childIds = (spec.children ?? []).map((child) => add(child, id));
    return id;
  };
  add(root, undefined);
  return nodes;
}

/** StaticText with the InlineTextBox Chrome puts under it. */
export function text(name: string): AXSpec {
  return { role: 'StaticText', name, children: [{ role: 'InlineTextBox', name, backendId: null }] };
}
