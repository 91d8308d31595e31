import { describe, expect, it } from 'vitest';
import { findBrowser } from './chromeLauncher.js';

describe('findBrowser', () => {
  it('refuses a named browser that does not exist, naming every setting that can give it', () => {
    expect(() => findBrowser('/nonexistent/chrome')).toThrow(
      /\/nonexistent\/chrome\. Fix the setting that names it \(--executable-path, the CHROME_PATH environment variable or browser\.executablePath/,
    );
  });
});
