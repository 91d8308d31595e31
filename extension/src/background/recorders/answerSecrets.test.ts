import { describe, expect, it } from 'vitest';
import type { ResponseFrame, ToolResult } from '@browser-agent/protocol';
import { hideTypedInAnswer } from './answerSecrets';

const TYPED = 'Hunter2!x y';

function answer(): ResponseFrame {
  return {
    type: 'response',
    id: 'c1',
    sessionId: 's1',
    payload: {
      success: true,
      data: {
        content: [
          { type: 'text', text: `- Page URL: http://127.0.0.1/welcome?pw=Hunter2%21x+y` },
          { type: 'image', data: `${TYPED}-as-if-base64`, mimeType: 'image/png' },
        ],
        structured: { tabs: [{ title: `Welcome ${TYPED}`, url: '/w?pw=Hunter2%21x%20y' }] },
        serverData: {
          files: [{ data: `${TYPED}==`, ext: 'bin', prefix: 'body', label: 'body' }],
          pageHtml: { html: '<b>Hunter2!x y</b>', truncated: false },
        },
      },
    },
  };
}

describe('hideTypedInAnswer', () => {
  it('hides a typed secret in every string of the answer, in its URL and form encodings', () => {
    const text = JSON.stringify(hideTypedInAnswer(answer(), [TYPED]));
    expect(text).not.toContain('Hunter2%21x+y');
    expect(text).not.toContain('Hunter2%21x%20y');
    expect(text).not.toContain('Welcome Hunter2');
    expect(text).not.toContain('<b>Hunter2');
    expect(text.match(/\[hidden\]/g)).toHaveLength(4);
  });

  it('leaves base64 bytes (images, files) as they are', () => {
    const hidden = hideTypedInAnswer(answer(), [TYPED]);
    if (!hidden.payload.success) throw new Error('the answer failed');
    const data = hidden.payload.data as ToolResult;
    expect(data.content[1]).toEqual({
      type: 'image',
      data: `${TYPED}-as-if-base64`,
      mimeType: 'image/png',
    });
    expect(data.serverData?.files?.[0]?.data).toBe(`${TYPED}==`);
  });

  it('hides it in an error message too, and changes nothing when nothing was typed', () => {
    const failed = {
      type: 'response',
      id: 'c2',
      sessionId: 's1',
      payload: {
        success: false,
        error: { code: 'TIMEOUT', message: `No answer from /x?p=${TYPED}` },
      },
    } as ResponseFrame;
    expect(JSON.stringify(hideTypedInAnswer(failed, [TYPED]))).not.toContain(TYPED);
    const same = answer();
    expect(hideTypedInAnswer(same, [])).toBe(same);
  });
});
