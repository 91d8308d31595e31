import { describe, expect, it } from 'vitest';
import { bodyBytes, isUnknownType, sniffPlainText, sniffType, SNIFF_BYTES } from './bodySniffer';

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('sniffType (what Chrome makes of an untyped body)', () => {
  it('takes markup, XML and plain text for what a tab shows', () => {
    expect(sniffType(bytes('\n  <!DOCTYPE html><title>x</title>'))).toBe('text/html');
    expect(sniffType(bytes('<P>hello'))).toBe('text/html');
    expect(sniffType(bytes('<!--x-->'))).toBe('text/html');
    expect(sniffType(bytes('<?xml version="1.0"?><a/>'))).toBe('text/xml');
    expect(sniffType(bytes('just words,\ttabs\r\nand lines\x1b[0m'))).toBe('text/plain');
    expect(sniffType(bytes('\xef\xbb\xbfBOM then \x00'))).toBe('text/plain');
    expect(sniffType(new Uint8Array())).toBe('text/plain');
  });
  it('reads magic numbers: images, media, PDF, archives', () => {
    expect(sniffType(bytes('\x89PNG\r\n\x1a\n\x00\x00'))).toBe('image/png');
    expect(sniffType(bytes('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffType(bytes('\x00\x00\x00\x18ftypmp42'))).toBe('video/mp4');
    expect(sniffType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffType(bytes('PK\x03\x04\x14\x00'))).toBe('application/zip');
    expect(sniffType(bytes('\x1f\x8b\x08\x00'))).toBe('application/x-gzip');
  });
  it('takes control bytes for a binary Chrome saves, within the first 1024 bytes only', () => {
    expect(sniffType(bytes('data\x00\x01\x02'))).toBe('application/octet-stream');
    expect(sniffType(bytes('<pre>not a tag\x00'))).toBe('application/octet-stream');
    expect(sniffType(bytes(`${'a'.repeat(SNIFF_BYTES - 1)}\x00`))).toBe('application/octet-stream');
    expect(sniffType(bytes(`${'a'.repeat(SNIFF_BYTES)}\x00`))).toBe('text/plain');
  });
});

describe('sniffPlainText (what Chrome makes of a text/plain body)', () => {
  it('keeps text text, even text that looks like markup or has a BOM before control bytes', () => {
    expect(sniffPlainText(bytes('just words,\ttabs\r\n'))).toBe('text/plain');
    expect(sniffPlainText(bytes('<!doctype html><p>shown as text'))).toBe('text/plain');
    expect(sniffPlainText(bytes('\xef\xbb\xbfBOM then \x00'))).toBe('text/plain');
  });
  it('takes binary bytes for what their magic number names, else for a file Chrome saves', () => {
    expect(sniffPlainText(bytes('report\x00\x01 data'))).toBe('application/octet-stream');
    expect(sniffPlainText(bytes('PK\x03\x04\x14\x00'))).toBe('application/zip');
    expect(sniffPlainText(bytes('%PDF-1.7\n\x00'))).toBe('application/pdf');
    expect(sniffPlainText(bytes(`${'a'.repeat(SNIFF_BYTES)}\x00`))).toBe('text/plain');
  });
});

describe('isUnknownType and bodyBytes', () => {
  it('counts no type and the wildcard spellings as unknown', () => {
    for (const type of ['', 'unknown/unknown', 'application/unknown', '*/*'])
      expect(isUnknownType(type), type).toBe(true);
    expect(isUnknownType('text/plain')).toBe(false);
  });
  it('decodes base64 bodies, cut to whole quads', () => {
    const raw = 'PK\x03\x04'.padEnd(3000, '\x00');
    expect(sniffType(bodyBytes(btoa(raw), true))).toBe('application/zip');
    expect(bodyBytes(btoa(raw), true).length).toBeGreaterThanOrEqual(SNIFF_BYTES);
    expect(bodyBytes('<html>', false)).toEqual(bytes('<html>'));
  });
});
