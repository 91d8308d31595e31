import { describe, expect, it, vi } from 'vitest';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { downloadReason, isAttachment, sniffedType, SNIFF_READ_MS } from './downloadGate';

const header = (value: string) => [{ name: 'Content-Disposition', value }];

describe('isAttachment', () => {
  it('is true for attachment, with or without parameters, in any case', () => {
    expect(isAttachment(header('attachment'))).toBe(true);
    expect(isAttachment(header('Attachment; filename="a.csv"'))).toBe(true);
    expect(isAttachment([{ name: 'content-disposition', value: ' attachment ;x=1' }])).toBe(true);
  });
  it('is false for inline, lookalikes and no header', () => {
    expect(isAttachment(header('inline; filename="attachment.pdf"'))).toBe(false);
    expect(isAttachment(header('attachments'))).toBe(false);
    expect(isAttachment([])).toBe(false);
    expect(isAttachment(undefined)).toBe(false);
  });
});

describe('downloadReason (issue #25: every response Chrome would save)', () => {
  const typed = (type: string, disposition?: string) => [
    { name: 'Content-Type', value: type },
    ...(disposition === undefined ? [] : [{ name: 'Content-Disposition', value: disposition }]),
  ];
  it('holds attachments, and types no tab shows whatever the disposition says', () => {
    expect(downloadReason(200, typed('text/html', 'attachment'))).toBe('attachment');
    expect(downloadReason(200, typed('application/zip'))).toBe('type');
    expect(downloadReason(200, typed('Application/Octet-Stream; charset=binary'))).toBe('type');
    expect(downloadReason(200, typed('application/octet-stream', 'inline; filename="x.bin"'))).toBe(
      'type',
    );
    expect(downloadReason(200, typed('application/x-msdownload'))).toBe('type');
    expect(downloadReason(200, typed('text/csv'))).toBe('type');
    expect(downloadReason(200, typed('text/calendar'))).toBe('type');
    expect(downloadReason(404, typed('application/zip'))).toBe('type');
  });
  it('lets pages, text, images, media and +xml/+json types through', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/json',
      'application/ld+json',
      'application/rss+xml',
      'image/png',
      'image/svg+xml',
      'video/mp4',
    ])
      expect(downloadReason(200, typed(type)), type).toBeUndefined();
    // Redirects and empty answers save nothing.
    expect(downloadReason(302, typed('application/zip'))).toBeUndefined();
    expect(downloadReason(204, typed('application/zip'))).toBeUndefined();
  });
  it('leaves untyped bodies to the sniffer and PDFs to the viewer check', () => {
    expect(downloadReason(200, [])).toBe('untyped');
    expect(downloadReason(200, typed(''))).toBe('untyped');
    expect(downloadReason(200, typed('*/*'))).toBe('untyped');
    expect(downloadReason(204, [])).toBeUndefined();
    expect(downloadReason(200, typed('application/pdf'))).toBe('pdf');
    expect(downloadReason(200, typed('application/pdf', 'attachment'))).toBe('attachment');
  });
  it('leaves text/plain to the sniffer (Chrome saves binary bytes sent as text), unless nosniff', () => {
    expect(downloadReason(200, typed('text/plain'))).toBe('plain');
    expect(downloadReason(200, typed('Text/Plain; charset=utf-8'))).toBe('plain');
    const nosniff = [...typed('text/plain'), { name: 'X-Content-Type-Options', value: 'nosniff' }];
    expect(downloadReason(200, nosniff)).toBeUndefined();
  });
});

describe('sniffedType', () => {
  it('gives up on a body that never ends (no length), so the response is held, not the tab', async () => {
    vi.useFakeTimers();
    try {
      const cdp = {
        send: () => new Promise(() => undefined),
        on: () => () => undefined,
      } as unknown as CdpClient;
      const event = {
        requestId: 'r1',
        responseHeaders: [],
      } as unknown as Protocol.Fetch.RequestPausedEvent;
      let settled = false;
      const sniffing = sniffedType(cdp, event).then((type) => {
        settled = true;
        return type;
      });
      await vi.advanceTimersByTimeAsync(SNIFF_READ_MS - 10);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(await sniffing).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
