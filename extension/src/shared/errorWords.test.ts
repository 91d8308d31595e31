import { ErrorCode } from '@browser-agent/protocol';
import { describe, expect, it } from 'vitest';
import { errorWords } from './errorWords';

describe('errorWords', () => {
  it('puts every error code in words, none of them the code itself', () => {
    for (const code of Object.values(ErrorCode)) {
      const words = errorWords(code);
      expect(words, code).not.toBe(code);
      expect(words, code).toMatch(/^[a-z]/);
    }
  });
});
