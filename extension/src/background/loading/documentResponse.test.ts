import { describe, expect, it } from 'vitest';
import { formatDocumentResponse, statusLabel } from './documentResponse';

describe('document response', () => {
  it('names the status with its standard phrase, never the server text', () => {
    expect(statusLabel({ status: 404, url: 'http://x/' })).toBe('404 Not Found');
    expect(statusLabel({ status: 599, url: 'http://x/' })).toBe('599');
  });

  it('warns for 4xx and 5xx only, and says nothing without a response', () => {
    expect(formatDocumentResponse({ status: 200, url: 'http://x/' })).toBe('\n- HTTP status: 200');
    expect(formatDocumentResponse({ status: 404, url: 'http://x/' })).toContain(
      'Warning: the server answered 404 Not Found (a client error)',
    );
    expect(formatDocumentResponse({ status: 503, url: 'http://x/' })).toContain('a server error');
    expect(formatDocumentResponse(undefined)).toBe('');
    expect(formatDocumentResponse({ status: 0, url: 'data:' })).toBe('');
  });
});
