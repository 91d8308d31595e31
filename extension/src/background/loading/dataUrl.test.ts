import { describe, expect, it } from 'vitest';
import { dataUrlDocument } from './dataUrl';

describe('dataUrlDocument', () => {
  it('decodes percent-encoded and base64 data in its charset', () => {
    expect(dataUrlDocument('data:text/html,%3Ch1%3EHi%20%C3%BC%3C%2Fh1%3E')).toBe('<h1>Hi ü</h1>');
    expect(dataUrlDocument('data:text/html;base64,PGI+YjwvYj4=')).toBe('<b>b</b>');
    expect(dataUrlDocument('data:,a<b')).toBe('<pre>a&lt;b</pre>');
    expect(dataUrlDocument('data:image/png;base64,AAAA')).toContain('<img');
  });
  it('refuses what it cannot show, saying how to write it', () => {
    expect(() => dataUrlDocument('data:text/html')).toThrow('no comma');
    expect(() => dataUrlDocument('data:text/html;base64,@@@')).toThrow('base64');
    expect(() => dataUrlDocument('data:application/pdf;base64,AAAA')).toThrow('cannot be shown');
  });
});
