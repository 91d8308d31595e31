import { describe, expect, it } from 'vitest';
import { describeBody, MAX_KEPT_BODY_CHARS } from './responseBodies';

const b64 = (bytes: number[]): string => btoa(String.fromCharCode(...bytes));

describe('describeBody', () => {
  it('returns text bodies as they are, also when they came base64-encoded', () => {
    expect(describeBody('{"ok":true}', false, 'application/json')).toBe('{"ok":true}');
    expect(describeBody(btoa('hello'), true, 'text/plain')).toBe('hello');
  });

  it('summarises binary bodies instead of showing them', () => {
    expect(describeBody(b64([0x89, 0x50, 0x4e, 0x47]), true, 'image/png')).toBe(
      '(binary body, 4 bytes, image/png; not shown)',
    );
    // Declared as text but not UTF-8: still binary.
    expect(describeBody(b64([0xff, 0xfe, 0x00]), true, 'text/plain')).toContain('binary body');
  });

  it('cuts long text with a note that gives the full length', () => {
    const long = 'x'.repeat(MAX_KEPT_BODY_CHARS + 5_000);
    const kept = describeBody(long, false, 'application/json');
    expect(kept).toContain(`body truncated: ${long.length} characters in all`);
    expect(kept.length).toBeLessThan(long.length);
  });
});
