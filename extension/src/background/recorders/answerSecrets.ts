/**
 * The last step before an answer leaves the worker: every value typed into a secret field, in
 * any tab, is hidden in each of the answer's strings, whatever tool produced it (issue #25.4,
 * one redaction for every byte that leaves). A sign-in form sent with GET puts the password in
 * the page's URL, which navigate, click, tabs and the network list all show; a page may echo it
 * into its text, its title or its console. Base64 bytes (images, files) stay as they are: the
 * value does not appear in them as text, and rewriting them would break them.
 */
import type { ResponseFrame } from '@browser-agent/protocol';
import { typedSecretsHider } from './requestSecrets';

export function hideTypedInAnswer(frame: ResponseFrame, typed: readonly string[]): ResponseFrame {
  if (typed.length === 0) return frame;
  return hideIn(frame, typedSecretsHider(typed)) as ResponseFrame;
}

function hideIn(value: unknown, hide: (text: string) => string): unknown {
  if (typeof value === 'string') return hide(value);
  if (Array.isArray(value)) return value.map((v) => hideIn(v, hide));
  if (typeof value !== 'object' || value === null) return value;
  const bytes = 'mimeType' in value || 'ext' in value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, bytes && key === 'data' ? v : hideIn(v, hide)]),
  );
}
