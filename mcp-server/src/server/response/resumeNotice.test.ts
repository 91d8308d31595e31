import { describe, expect, it } from 'vitest';
import { ResumeNotice } from './resumeNotice.js';

describe('ResumeNotice', () => {
  it('adds the calls before the resume to the first result only, and to browser_session_info', () => {
    const notice = new ResumeNotice();
    expect(notice.note('browser_snapshot')).toBeUndefined();
    notice.resumed([
      {
        t: '2026-11-21T08:01:02.000Z',
        tool: 'browser_navigate',
        args: '{"url":"u"}',
        code: 'ok',
        ms: 9,
      },
      { t: '2026-11-21T08:01:03.000Z', tool: 'browser_click', args: '{"ref":"e1"}' },
    ]);
    const first = notice.note('browser_snapshot');
    expect(first).toContain('resumed after a restart');
    expect(first).toContain('- 08:01:02 browser_navigate {"url":"u"} → ok (9 ms)');
    expect(first).toContain('- 08:01:03 browser_click {"ref":"e1"} → no answer (cut off)');
    expect(notice.note('browser_snapshot')).toBeUndefined();
    expect(notice.note('browser_session_info')).toContain('browser_navigate');
  });
});
