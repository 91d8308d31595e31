/**
 * Which URLs the agent may open. Chrome refuses debugger access to its own pages, other
 * extensions and the Web Store, so those are refused up front with a clear reason; beyond
 * them only web pages, about:blank and data: URLs are allowed.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import { Hint } from '../common/hints';
import { oneLine } from '../common/text';

const RESTRICTED_SCHEMES: ReadonlySet<string> = new Set([
  'chrome:',
  'chrome-extension:',
  'chrome-untrusted:',
  'chrome-search:',
  'devtools:',
  'view-source:',
  'file:',
]);

const ALLOWED_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'data:', 'about:']);

/**
 * Returns the normalised URL to navigate to, or throws INVALID_ARGS / RESTRICTED_URL. file://
 * pages can hold anything on the user's disk, so they need the allowFileUrls setting.
 */
export function checkNavigableUrl(raw: string, allowFileUrls = false): string {
  const shown = oneLine(raw, 200);
  const url = parse(raw.trim());
  if (url === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `"${shown}" is not an absolute URL.`,
      Hint.absoluteUrl,
    );
  }
  if (url.protocol === 'file:') {
    if (allowFileUrls) return url.href;
    throw new BridgeError(
      ErrorCode.RESTRICTED_URL,
      `${shown} is a local file; file:// URLs are off.`,
      'Start the server with --allow-file-urls (or "allowFileUrls": true in its config) to open local files.',
    );
  }
  if (isRestricted(url)) {
    throw new BridgeError(
      ErrorCode.RESTRICTED_URL,
      `${shown} is a restricted page.`,
      Hint.restrictedUrl,
    );
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Cannot open ${shown}: only http(s), about:blank and data: URLs are supported.`,
      url.protocol === 'javascript:' ? Hint.useEvaluate : Hint.absoluteUrl,
    );
  }
  return url.href;
}

/** For URLs reached some other way, e.g. the previous history entry. */
export function isRestrictedUrl(raw: string): boolean {
  const url = parse(raw);
  return url !== undefined && isRestricted(url);
}

function isRestricted(url: URL): boolean {
  if (RESTRICTED_SCHEMES.has(url.protocol)) return true;
  // about:settings and friends are chrome:// pages under another name.
  if (url.protocol === 'about:') return url.pathname !== 'blank';
  const host = url.hostname.replace(/\.$/, '');
  if (host === 'chromewebstore.google.com') return true;
  return host === 'chrome.google.com' && /^\/webstore(\/|$)/.test(url.pathname);
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}
