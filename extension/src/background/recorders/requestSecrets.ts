/**
 * Request bodies shown by browser_network_request keep their shape but not their secrets: a
 * sign-in POST carries the password the snapshot hides. Fields are found by name, in
 * form-encoded and JSON bodies; any other body is shown as sent. A nested name counts by each of
 * its parts (`user[password]`, `auth.pin`), and a secret key hides whatever it holds, arrays and
 * objects included.
 */
// A password's confirmation and repeat fields count too (`password_confirmation`, `password2`,
// `pass1`, `new_password1`, `passwordConfirm`, #25.4): the value is the same secret.
const SECRET_NAME =
  /pass(word|wd|phrase|code)?[-_]?(\d+|again|repeat|retype|confirm(ation)?|verify|verification|check)?$|^pw\d*$|pwd|secret|otp|one.?time|cvv|cvc|csc|card.?num|cc.?(num|exp|csc)|^pin$/i;
const HIDDEN = '[hidden]';

/** `user[password]`, `creds.pwd`, `pw[]`: secret when any part of the name is. */
function isSecretName(name: string): boolean {
  return name.split(/[[\].]+/).some((part) => part !== '' && SECRET_NAME.test(part));
}

export function hideBodySecrets(body: string, contentType: string): string {
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
