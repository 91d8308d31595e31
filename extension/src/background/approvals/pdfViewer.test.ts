import { afterEach, describe, expect, it, vi } from 'vitest';
import { pdfViewerAvailable } from './pdfViewer';

afterEach(() => vi.unstubAllGlobals());

function stubTab(answer: () => Promise<unknown>): unknown[][] {
  const sent: unknown[][] = [];
  vi.stubGlobal('chrome', {
    tabs: {
      sendMessage: (...args: unknown[]) => {
        sent.push(args);
        return answer();
      },
    },
  });
  return sent;
}

describe('pdfViewerAvailable', () => {
  it('is what the top frame’s content script answers', async () => {
    const sent = stubTab(() => Promise.resolve(true));
    expect(await pdfViewerAvailable(4)).toBe(true);
    expect(sent).toEqual([[4, { kind: 'pdf_viewer_probe' }, { frameId: 0 }]]);
    stubTab(() => Promise.resolve(false));
    expect(await pdfViewerAvailable(4)).toBe(false);
  });
  it('is false (the gate holds the PDF) when no content script answers', async () => {
    stubTab(() => Promise.resolve(undefined));
    expect(await pdfViewerAvailable(4)).toBe(false);
    stubTab(() => Promise.reject(new Error('Receiving end does not exist.')));
    expect(await pdfViewerAvailable(4)).toBe(false);
  });
});
