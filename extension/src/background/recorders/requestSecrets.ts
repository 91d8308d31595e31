/**
 * Request bodies shown by browser_network_request keep their shape but not their secrets: a
 * sign-in POST carries the password the snapshot hides. Fields are found by name, in
 * form-encoded and JSON bodies; any other body is shown as sent. A nested name counts by each of
 * its parts (`user[password]`, `auth.pin`), and a secret key hides whatever it holds, arrays and
 * objects included. Values the agent typed into secret fields are hidden by value too.
 */
import { redactForms, secretPattern } from '@browser-agent/protocol';
import type { TabState } from '../tabStates';
// A password's confirmation and repeat fields count too (`password_confirmation`, `password2`,
// `pass1`, `new_password1`, `passwordConfirm`, #25.4): the value is the same secret.
const SECRET_NAME =
  /pass(word|wd|phrase|code)?[-_]?(\d+|again|repeat|retype|confirm(ation)?|verify|verification|check)?$|^pw\d*$|pwd|secret|otp|one.?time|cvv|cvc|csc|card.?num|cc.?(num|exp|csc)|^pin$/i;
const HIDDEN = '[hidden]';
/** Shorter typed values are not hidden by value: a 3-digit PIN would hide every "123" of a body. */
const MIN_TYPED_SECRET = 4;
/** Values the tab remembers (the latest last). */
const MAX_TYPED_SECRETS = 20;

/**
 * Remembers a value the agent typed into a field the page model counts as secret (by type and
 * autocomplete, whatever its name): bodies then hide it by value, in every encoding a page may
 * send it in (a confirmation field named `x2` carries the same secret).
 */
export function rememberTypedSecret(state: TabState, text: string): void {
  if ([...text].length < MIN_TYPED_SECRET || state.typedSecrets.includes(text)) return;
  state.typedSecrets = [...state.typedSecrets, text].slice(-MAX_TYPED_SECRETS);
}

/** Every raw, JSON, URL, form and HTML-encoded form of a typed secret becomes `[hidden]`. */
export function hideTypedSecrets(text: string, typed: readonly string[]): string {
  return typedSecretsHider(typed)(text);
}

/** hideTypedSecrets with its pattern built once, for many strings. */
export function typedSecretsHider(typed: readonly string[]): (text: string) => string {
  if (typed.length === 0) return (text) => text;
  const pattern = secretPattern(typed.map((value) => ['typed', value] as const));
  return (text) => redactForms(text, pattern, () => HIDDEN);
}

/** `user[password]`, `creds.pwd`, `pw[]`: secret when any part of the name is. */
function isSecretName(name: string): boolean {
  return name.split(/[[\].]+/).some((part) => part !== '' && SECRET_NAME.test(part));
}

export function hideBodySecrets(
  body: string,
  contentType: string,
  typed: readonly string[] = [],
): string {
  return hideTypedSecrets(hideNamedSecrets(body, contentType), typed);
}

function hideNamedSecrets(body: string, contentType: string): string {
  if (/x-www-form-urlencoded/i.test(contentType)) return hideFormSecrets(body);
  if (/json/i.test(contentType)) return hideJsonSecrets(body);
  if (/multipart\/form-data/i.test(contentType)) return hideMultipartSecrets(body);
  return body;
}

/** A part's value runs from the blank line after its headers to the next boundary line. */
function hideMultipartSecrets(body: string): string {
  return body.replace(
    /(Content-Disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([\s\S]*?)(\r?\n--)/gi,
    (whole, head: string, name: string, _value: string, tail: string) =>
      isSecretName(name) ? `${head}${HIDDEN}${tail}` : whole,
  );
}

function hideFormSecrets(body: string): string {
  const params = new URLSearchParams(body);
  let hidden = false;
  for (const [name] of params) {
    if (!isSecretName(name)) continue;
    params.set(name, HIDDEN);
    hidden = true;
  }
  return hidden ? params.toString().replaceAll('%5Bhidden%5D', HIDDEN) : body;
}

function hideJsonSecrets(body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  let hidden = false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const secret = isSecretName(key) && child !== null && typeof child !== 'boolean';
      if (secret) hidden = true;
      out[key] = secret ? HIDDEN : walk(child);
    }
    return out;
  };
  const result = walk(value);
  return hidden ? JSON.stringify(result) : body;
}
