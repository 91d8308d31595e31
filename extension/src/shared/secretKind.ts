import type { SecretFieldKind } from './messages';

/**
 * Passwords, payment-card fields and one-time codes. One rule for the page model's value hiding
 * and accessible names, browser_get_html, the echo of typing, the worker's redaction, the
 * screenshot mask and the submit guard:
 *   - an <input type=password>;
 *   - an autocomplete token cc-*, one-time-code, current-password or new-password (anywhere in
 *     the list: "billing cc-number" counts);
 *   - a text input whose name or id says password ("password", "user[password]", "pwd"): a
 *     page's "show password" toggle turns the field into type=text, and the field keeps its name;
 *   - and, in the page model's world, any input it ever saw as a password ("was ever a secret").
 */
const ONE_TIME_CODE_TOKEN = 'one-time-code';
const CARD_TOKEN_PREFIX = 'cc-';
const PASSWORD_TOKENS = ['current-password', 'new-password'];

/**
 * The autocomplete half of the rule as a regex source, for scripts that run inside the page and
 * cannot import this module (page/pageScript.ts, SECRET_FIELD_FUNCTION).
 */
export const SECRET_AUTOCOMPLETE = `(^|\\s)(${CARD_TOKEN_PREFIX}|${ONE_TIME_CODE_TOKEN}|${PASSWORD_TOKENS.join('|')})`;
/** The name half: a field named like a password, including nested names like `user[password]`. */
export const SECRET_FIELD_NAME = '(^|[-_.\\[])(pass(word|wd|phrase)?|pwd|passwd)(\\]|$)';

export function secretKind(
  type: string | null | undefined,
  autocomplete: string | null | undefined,
  name?: string | null,
): SecretFieldKind | undefined {
  const t = type?.toLowerCase() ?? '';
  if (t === 'password') return 'password';
  const tokens = (autocomplete ?? '').toLowerCase().split(/\s+/);
  if (tokens.includes(ONE_TIME_CODE_TOKEN)) return 'one-time code';
  if (tokens.some((k) => k.startsWith(CARD_TOKEN_PREFIX))) return 'payment card';
  if (tokens.some((k) => PASSWORD_TOKENS.includes(k))) return 'password';
  if ((t === 'text' || t === '') && name && new RegExp(SECRET_FIELD_NAME, 'i').test(name))
    return 'password';
  return undefined;
}

/**
 * The same rule as a function declaration for Runtime.callFunctionOn and page scripts: called
 * with an element, true when its value is a secret. `globalThis.__browserAgentEverSecret` is the
 * page model's set of inputs it once saw as passwords, where the script runs in that world.
 */
export const SECRET_FIELD_FUNCTION = `function isSecretField(el) {
  if (!el || el.localName !== 'input') return false;
  const type = (el.type || '').toLowerCase();
  if (type === 'password') return true;
  const ever = globalThis.__browserAgentEverSecret;
  if (ever && typeof ever.has === 'function' && ever.has(el)) return true;
  if (new RegExp(${JSON.stringify(SECRET_AUTOCOMPLETE)}).test((el.getAttribute('autocomplete') || '').toLowerCase())) return true;
  if (type !== 'text' && type !== '') return false;
  const named = new RegExp(${JSON.stringify(SECRET_FIELD_NAME)}, 'i');
  return named.test(el.getAttribute('name') || '') || named.test(el.id || '');
}`;
