/**
 * Password, payment-card and one-time-code fields. The page model (page/domWalk.ts) leaves their
 * values out of the outline in the page itself, so they never cross the debugger link; the same
 * rule, on DOM attributes, serves tools that read fields through CDP.
 */
import { secretKind } from '../../shared/secretKind';

/** Autocomplete tokens of secret fields, as a regex source (the page model uses it too). */
export const SECRET_AUTOCOMPLETE = '(^|\\s)(cc-|one-time-code)';

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
