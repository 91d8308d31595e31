/** What the submit guard reads from a form: its secret fields and where it would go. */
import type { SecretFieldKind } from '../shared/messages';
import { secretKind } from '../shared/secretKind';
import { shadowRootOf } from './shadowRoots';

/** The kind of secret an input holds (shared/secretKind.ts's rule), if any. */
export function inputSecretKind(field: HTMLInputElement): SecretFieldKind | undefined {
  return secretKind(
    field.type,
    field.getAttribute('autocomplete'),
    field.getAttribute('name') ?? field.id,
  );
}

export function secretFields(form: HTMLFormElement): SecretFieldKind[] {
  const kinds = new Set<SecretFieldKind>();
  for (const field of Array.from(form.elements)) {
    if (!(field instanceof HTMLInputElement)) continue;
    const kind = inputSecretKind(field);
    if (kind !== undefined) kinds.add(kind);
  }
  return [...kinds];
}

export function targetOrigin(form: HTMLFormElement, submitter: HTMLElement | null): string {
  const override =
    (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) &&
    submitter.hasAttribute('formaction')
      ? submitter.formAction
      : undefined;
  try {
    return new URL(override ?? form.action, document.baseURI).origin;
  } catch {
    return location.origin;
  }
}

/**
 * The secret-field kinds of every form of this document, shadow roots (open and closed)
 * included: what a script run in this frame could submit or read.
 */
export function secretFormsIn(root: Document | ShadowRoot = document): SecretFieldKind[] {
  const kinds = new Set<SecretFieldKind>();
  for (const element of Array.from(root.querySelectorAll('*'))) {
    if (element instanceof HTMLFormElement)
      for (const kind of secretFields(element)) kinds.add(kind);
    const inner = shadowRootOf(element);
    if (inner !== null) for (const kind of secretFormsIn(inner)) kinds.add(kind);
  }
  return [...kinds];
}
