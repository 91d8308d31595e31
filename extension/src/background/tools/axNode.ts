import type { Protocol } from 'devtools-protocol';

export type AXNode = Protocol.Accessibility.AXNode;
type AXPropertyName = Protocol.Accessibility.AXPropertyName;

// AXValue.value is typed `any` by devtools-protocol; these readers narrow it at the boundary.

export function axRole(node: AXNode): string {
  const role: unknown = node.role?.value;
  return typeof role === 'string' ? role : '';
}

export function axName(node: AXNode): string {
  const name: unknown = node.name?.value;
  return typeof name === 'string' ? name : '';
}

/** The node's value (text of a field, position of a slider), when it has one. */
export function axValue(node: AXNode): string | undefined {
  const value: unknown = node.value?.value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

export function axProperty(node: AXNode, name: AXPropertyName): unknown {
  const value: unknown = node.properties?.find((p) => p.name === name)?.value.value;
  return value;
}

/** Boolean properties arrive as booleans, tristates as "true" / "false" / "mixed". */
export function axFlag(node: AXNode, name: AXPropertyName): boolean | 'mixed' | undefined {
  const value = axProperty(node, name);
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (value === 'mixed') return 'mixed';
  return undefined;
}
