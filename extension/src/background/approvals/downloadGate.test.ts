import { describe, expect, it } from 'vitest';
import { isAttachment } from './downloadGate';

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
