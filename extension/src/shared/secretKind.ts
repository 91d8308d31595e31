import type { SecretFieldKind } from './messages';

/**
 * Passwords, payment-card fields and one-time codes, by input type or autocomplete token. One
 * rule for the page model's value hiding, the worker's redaction and the submit guard.
 */
const ONE_TIME_CODE_TOKEN = 'one-time-code';
const CARD_TOKEN_PREFIX = 'cc-';

/**
 * The autocomplete half of the rule as a regex source, for the page model's script, which runs
 * inside the page and cannot import this module (page/pageScript.ts passes it in).
 */
export const SECRET_AUTOCOMPLETE = `(^|\\s)(${CARD_TOKEN_PREFIX}|${ONE_TIME_CODE_TOKEN})`;

export function secretKind(
  type: string | null | undefined,
  autocomplete: string | null | undefined,
): SecretFieldKind | undefined {
  if (type?.toLowerCase() === 'password') return 'password';
  const tokens = (autocomplete ?? '').toLowerCase().split(/\s+/);
  if (tokens.includes(ONE_TIME_CODE_TOKEN)) return 'one-time code';
  if (tokens.some((t) => t.startsWith(CARD_TOKEN_PREFIX))) return 'payment card';
  return undefined;
}
