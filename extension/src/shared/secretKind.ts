import type { SecretFieldKind } from './messages';

/**
 * Passwords, payment-card fields and one-time codes, by input type or autocomplete token. One
 * rule for the snapshot's value hiding (worker) and the submit guard (content script).
 */
export function secretKind(
  type: string | null | undefined,
  autocomplete: string | null | undefined,
): SecretFieldKind | undefined {
  if (type?.toLowerCase() === 'password') return 'password';
  const tokens = (autocomplete ?? '').toLowerCase().split(/\s+/);
  if (tokens.includes('one-time-code')) return 'one-time code';
  if (tokens.some((t) => t.startsWith('cc-'))) return 'payment card';
  return undefined;
}
