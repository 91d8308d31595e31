import { describe, expect, it } from 'vitest';
import { navigationFailedHint } from './navigationHint';

describe('navigationFailedHint', () => {
  it('says that Chromium refuses an unsafe port, not that a server is down', () => {
    const hint = navigationFailedHint('http://127.0.0.1:6000/', 'net::ERR_UNSAFE_PORT');
    expect(hint).toContain('port 6000');
    expect(hint).toContain('unsafe ports');
    expect(hint).not.toContain('Is the server running');
  });
});
