/**
 * Opening a `data:` URL. Chromium does not let an extension's debugger take a tab to a data:
 * URL: `Page.navigate` ends in net::ERR_ABORTED, and `chrome.tabs.update` leaves the tab where it
 * was. So the tab goes to about:blank and the data URL's document is written into it
 * (`Page.setDocumentContent`): HTML as is, text in a <pre>, an image in an <img>. Its scripts
 * run; its URL stays about:blank, and the result says so.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { TabHandle } from '../tabStates';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The document to write for a data: URL; throws INVALID_ARGS for one it cannot show. */
export function dataUrlDocument(url: string): string {
  const m = /^data:([^,]*),(.*)$/is.exec(url);
  if (!m) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'This data: URL has no comma between its media type and its data.',
      'Write it as data:text/html,<html> (percent-encoded) or data:text/html;base64,<base64>.',
    );
  }
  const params = (m[1] ?? '').split(';').map((p) => p.trim());
  const base64 = params.includes('base64');
  const type = (params[0] || 'text/plain').toLowerCase();
  const charset = params.find((p) => /^charset=/i.test(p))?.slice(8) ?? 'utf-8';
  const raw = m[2] ?? '';
  if (type.startsWith('image/')) return `<img alt="" src="${escapeHtml(url)}">`;
  let text: string;
  try {
    const bytes = base64
      ? Uint8Array.from(atob(decodeURIComponent(raw).replace(/\s+/g, '')), (c) => c.charCodeAt(0))
      : percentDecode(raw);
    text = new TextDecoder(charset).decode(bytes);
  } catch {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The data of this ${type} data: URL cannot be decoded${base64 ? ' as base64' : ''}.`,
      'Percent-encode the data (encodeURIComponent), or give valid base64 after ";base64,".',
    );
  }
  if (type === 'text/html' || type === 'application/xhtml+xml') return text;
  if (type.startsWith('text/') || /json|xml|javascript/.test(type))
    return `<pre>${escapeHtml(text)}</pre>`;
  throw new BridgeError(
    ErrorCode.INVALID_ARGS,
    `A data: URL of type ${type} cannot be shown in a tab here.`,
    'Use text/html, another text type or an image type.',
  );
}

/** %XX escapes to bytes; everything else as its UTF-8 bytes (as the URL parser does). */
function percentDecode(raw: string): Uint8Array {
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < raw.length; i++) {
    const hex = /^%([0-9a-f]{2})/i.exec(raw.slice(i, i + 3));
    if (hex) {
      out.push(parseInt(hex[1] ?? '0', 16));
      i += 2;
    } else {
      out.push(...utf8.encode(raw[i] ?? ''));
    }
  }
  return Uint8Array.from(out);
}

/** Writes the document of a data: URL into the tab, which is on about:blank. */
export async function writeDataUrl(tab: TabHandle, url: string): Promise<void> {
  const html = dataUrlDocument(url);
  const { frameTree } = await tab.cdp.send('Page.getFrameTree');
  await tab.cdp.send('Page.setDocumentContent', { frameId: frameTree.frame.id, html });
}
