/**
 * Password, payment-card and one-time-code values never reach the outline. Chrome masks them with bullets in the AX tree by
 * default, but that depends on a renderer setting, so every filled field is also checked
 * against the DOM; when the check cannot be made the value is hidden.
 */
import type { CdpClient } from '../cdp';
import { secretKind } from '../../shared/secretKind';
import type { OutlineElement, OutlineNode } from './axOutline';

const MASKED_VALUE = /^[•●*]+$/;

export async function hideSecretValues(
  cdp: CdpClient,
  nodes: readonly OutlineNode[],
): Promise<void> {
  const filled: OutlineElement[] = [];
  const visit = (list: readonly OutlineNode[]): void => {
    for (const node of list) {
      if (node.kind !== 'element') continue;
      if (node.isField && node.value !== undefined) filled.push(node);
      visit(node.children);
    }
  };
  visit(nodes);
  await Promise.all(
    filled.map(async (field) => {
      field.valueHidden = await isSecret(cdp, field);
    }),
  );
}

async function isSecret(cdp: CdpClient, field: OutlineElement): Promise<boolean> {
  if (field.value !== undefined && MASKED_VALUE.test(field.value)) return true;
  if (field.backendNodeId === undefined) return true;
  try {
    const { node } = await cdp.send(
      'DOM.describeNode',
      { backendNodeId: field.backendNodeId },
      field.sessionId,
    );
    return node.localName === 'input' && isSecretInput(node.attributes);
  } catch {
    return true;
  }
}

/** Passwords, payment-card fields and one-time codes, by type or autocomplete token. */
export function isSecretInput(attributes: readonly string[] | undefined): boolean {
  return (
    secretKind(attribute(attributes, 'type'), attribute(attributes, 'autocomplete')) !== undefined
  );
}

/** DOM attributes arrive flattened as [name, value, name, value, …]. */
export function attribute(flat: readonly string[] | undefined, name: string): string | undefined {
  if (flat === undefined) return undefined;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if (flat[i]?.toLowerCase() === name) return flat[i + 1];
  }
  return undefined;
}
