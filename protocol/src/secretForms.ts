/**
 * The forms a secret value takes on its way out of a page: as is, JSON-escaped, URL-encoded
 * (encodeURIComponent, every reserved character percent-encoded, in either hex case), form-encoded
 * (`+` for a space, as URLSearchParams and HTML forms send it) and HTML-escaped (named and
 * numeric entities). One rule for every sink that redacts (mcp-server settings/secrets.ts): a
 * page that echoes a secret in any of these forms is redacted the same way.
 */

/** Characters encodeURIComponent leaves alone but stricter encoders (RFC 3986, forms) do not. */
const SUB_DELIMS = /[!'()*]/g;

function percentAll(value: string): string {
  return encodeURIComponent(value).replace(
    SUB_DELIMS,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it (`*` kept, `~` encoded). */
function formEncoded(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function htmlEscaped(value: string, quote: '&#39;' | '&#x27;' | '&apos;'): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, quote);
}

/** Every form of one value, the value itself first; empty forms are left out. */
export function secretForms(value: string): string[] {
  const percent = [encodeURIComponent(value), percentAll(value)];
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    ...percent,
    ...percent.map((p) => p.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())),
    ...percent.map((p) => p.replace(/%20/g, '+')),
    formEncoded(value),
    htmlEscaped(value, '&#39;'),
    htmlEscaped(value, '&#x27;'),
    htmlEscaped(value, '&apos;'),
    value.replace(/"/g, '&quot;'),
    value.replace(/&/g, '&amp;'),
  ];
  return [...new Set(forms)].filter((f) => f !== '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One pattern for every form of every value, longest first, and the name each form stands for. */
export interface SecretPattern {
  readonly re: RegExp | undefined;
  readonly names: ReadonlyMap<string, string>;
}

export function secretPattern(secrets: Iterable<readonly [string, string]>): SecretPattern {
  const names = new Map<string, string>();
  for (const [name, value] of secrets)
    for (const form of secretForms(value)) if (!names.has(form)) names.set(form, name);
  const forms = [...names.keys()].sort((a, b) => b.length - a.length);
  return {
    re: forms.length === 0 ? undefined : new RegExp(forms.map(escapeRegExp).join('|'), 'g'),
    names,
  };
}

/**
 * Replaces every form of every secret value by `label(name)`, in one pass (a short value never
 * rewrites the label of a long one), the longest form first where they overlap.
 */
export function redactForms(
  text: string,
  pattern: SecretPattern,
  label: (name: string) => string,
): string {
  if (pattern.re === undefined || text === '') return text;
  return text.replace(pattern.re, (form) => label(pattern.names.get(form) ?? ''));
}
