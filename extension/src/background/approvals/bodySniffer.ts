/**
 * What Chrome makes of a document response that names no type (issue #25), roughly as
 * Chromium's `net/base/mime_sniffer.cc` does for an unknown type: markup → HTML, a known magic
 * number → that type, XML → XML, bytes no text has (NUL and other control bytes, no Unicode BOM) →
 * `application/octet-stream`, anything else → text. Chrome shows or saves the result like a
 * typed response, so the download gate judges the sniffed type with its own type rule.
 * Only the first 1024 bytes count, as in Chrome (`kMaxBytesToSniff`). A `text/plain` body is
 * sniffed for binary bytes the same way (sniffPlainText).
 */

export const SNIFF_BYTES = 1024;

/** Types that name no type: Chrome sniffs these bodies as it sniffs an absent one. */
const UNKNOWN_TYPES = new Set(['', 'unknown/unknown', 'application/unknown', '*/*']);

export function isUnknownType(type: string): boolean {
  return UNKNOWN_TYPES.has(type);
}

/** The tags Chrome takes for HTML at the start of a body (after whitespace), any case. */
const HTML_TAGS = [
  '<!doctype html',
  '<script',
  '<html',
  '<!--',
  '<head',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
];

/** Magic numbers: `?` matches any byte (RIFF sizes, MP4 box sizes). */
const MAGIC: readonly (readonly [type: string, magic: string, offset?: number])[] = [
  ['application/pdf', '%PDF-'],
  ['application/postscript', '%!PS-Adobe-'],
  ['image/gif', 'GIF87a'],
  ['image/gif', 'GIF89a'],
  ['image/png', '\x89PNG\r\n\x1a\n'],
  ['image/jpeg', '\xff\xd8\xff'],
  ['image/bmp', 'BM'],
  ['image/webp', 'RIFF????WEBPVP'],
  ['image/x-icon', '\x00\x00\x01\x00'],
  ['audio/wav', 'RIFF????WAVE'],
  ['video/avi', 'RIFF????AVI '],
  ['audio/ogg', 'OggS\x00'],
  ['video/webm', '\x1a\x45\xdf\xa3'],
  ['audio/mpeg', 'ID3'],
  ['video/mp4', 'ftyp', 4],
  ['application/zip', 'PK\x03\x04'],
  ['application/x-gzip', '\x1f\x8b\x08'],
  ['application/x-rar-compressed', 'Rar!\x1a\x07\x00'],
  ['application/x-shockwave-flash', 'CWS'],
  ['application/x-shockwave-flash', 'FWS'],
  ['video/x-flv', 'FLV'],
  ['application/x-chrome-extension', 'Cr24'],
  ['application/x-msdownload', 'MZ'],
];

/** Unicode byte order marks: text, whatever control bytes follow. */
const BOMS = ['\xef\xbb\xbf', '\xfe\xff', '\xff\xfe'];

function startsWith(bytes: Uint8Array, magic: string, offset = 0): boolean {
  if (bytes.length < offset + magic.length) return false;
  for (let i = 0; i < magic.length; i++)
    if (magic[i] !== '?' && bytes[offset + i] !== magic.charCodeAt(i)) return false;
  return true;
}

/** Chrome's `kByteLooksBinary`: C0 controls except TAB, LF, FF, CR and ESC. */
function looksBinary(byte: number): boolean {
  return byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(byte);
}

/** The type Chrome would give this body, from its first {@link SNIFF_BYTES} bytes. */
export function sniffType(body: Uint8Array): string {
  const bytes = body.subarray(0, SNIFF_BYTES);
  let start = 0;
  while (start < bytes.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[start] ?? 0))
    start++;
  const head = String.fromCharCode(...bytes.subarray(start, start + 16)).toLowerCase();
  for (const tag of HTML_TAGS) {
    if (!head.startsWith(tag)) continue;
    const next = head.charCodeAt(tag.length);
    // A tag ends in a space or `>`; `<!--` needs nothing after it.
    if (tag === '<!--' || next === 0x20 || next === 0x3e) return 'text/html';
  }
  for (const [type, magic, offset] of MAGIC) if (startsWith(bytes, magic, offset)) return type;
  if (head.startsWith('<?xml')) return 'text/xml';
  if (BOMS.some((bom) => startsWith(bytes, bom))) return 'text/plain';
  return bytes.some(looksBinary) ? 'application/octet-stream' : 'text/plain';
}

/**
 * What Chrome makes of a body sent as `text/plain` (it sniffs those too, unless the server said
 * `X-Content-Type-Options: nosniff`): text stays text; bytes no text has become the type their
 * magic number names, else `application/octet-stream`, which a tab saves.
 */
export function sniffPlainText(body: Uint8Array): string {
  const bytes = body.subarray(0, SNIFF_BYTES);
  if (BOMS.some((bom) => startsWith(bytes, bom)) || !bytes.some(looksBinary)) return 'text/plain';
  for (const [type, magic, offset] of MAGIC) if (startsWith(bytes, magic, offset)) return type;
  return 'application/octet-stream';
}

/** A CDP body (`Fetch.getResponseBody`) as bytes. */
export function bodyBytes(body: string, base64Encoded: boolean): Uint8Array {
  return base64Encoded
    ? // Whole base64 quads only: atob refuses a cut one.
      Uint8Array.from(atob(body.slice(0, Math.ceil(SNIFF_BYTES / 3) * 4)), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(body.slice(0, SNIFF_BYTES));
}
