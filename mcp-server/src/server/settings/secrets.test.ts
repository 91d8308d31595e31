import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findContract } from '@browser-agent/protocol';
import { loadSecrets, parseDotenv, redactResult, redactText, withSecretValues } from './secrets.js';

describe('--secrets', () => {
  it('reads dotenv lines: comments, export, quotes; drops empty values', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
    const file = path.join(dir, 'secrets.env');
    writeFileSync(
      file,
      '# mine\nX-PASSWORD=password123\nexport TOKEN="tok en"\nEMPTY=\nQUOTED=\'a#b\'\nPLAIN=v # note\n',
    );
    const secrets = loadSecrets(file);
    expect([...secrets]).toEqual([
      ['X-PASSWORD', 'password123'],
      ['TOKEN', 'tok en'],
      ['QUOTED', 'a#b'],
      ['PLAIN', 'v'],
    ]);
    expect(parseDotenv('A=1\r\nB = 2').get('B')).toBe('2');
    expect(() => loadSecrets(path.join(dir, 'missing.env'))).toThrow(/--secrets/);
    expect([...loadSecrets({ A: 'x', B: '' })]).toEqual([['A', 'x']]);
  });

  it('shows every value by its name, as is, JSON-escaped and URL-encoded, longest first', () => {
    const secrets = new Map([
      ['PW', 'p"w d'],
      ['SHORT', 'p'],
    ]);
    expect(redactText('a p"w d b', secrets)).toBe('a <secret>PW</secret> b');
    expect(redactText('{"v":"p\\"w d"}', secrets)).toBe('{"v":"<secret>PW</secret>"}');
    expect(redactText('?q=p%22w%20d', secrets)).toBe('?q=<secret>PW</secret>');
    // One pass: a short value never rewrites the marker another value left.
    const short = new Map([
      ['LONG', 'password123'],
      ['E', 'e'],
    ]);
    expect(redactText('password123 e', short)).toBe('<secret>LONG</secret> <secret>E</secret>');
    const result = redactResult(
      {
        content: [{ type: 'text', text: 'typed p"w d' }],
        structuredContent: { value: 'p"w d', list: ['p"w d'] },
        isError: true,
      },
      new Map([['PW', 'p"w d']]),
    );
    expect(JSON.stringify(result)).not.toContain('w d');
    expect(result.structuredContent).toEqual({
      value: '<secret>PW</secret>',
      list: ['<secret>PW</secret>'],
    });
  });

  it('shows a value by its name in form, percent and HTML encodings too (#25.4)', () => {
    const secrets = new Map([['PW', 'Zq9&x "y" z!w<v>']]);
    const cases = [
      'Zq9%26x%20%22y%22%20z!w%3Cv%3E',
      'Zq9%26x+%22y%22+z%21w%3Cv%3E',
      'Zq9%26x%20%22y%22%20z%21w%3Cv%3E',
      'zq9%26x%20%22y%22%20z!w%3cv%3e'.replace('zq9', 'Zq9'),
      'Zq9&amp;x &quot;y&quot; z!w&lt;v&gt;',
      'Zq9&x \\"y\\" z!w<v>',
    ];
    for (const form of cases)
      expect(redactText(`before ${form} after`, secrets), form).toBe(
        'before <secret>PW</secret> after',
      );
    const quoted = new Map([['Q', "it's"]]);
    for (const form of ['it&#39;s', 'it&#x27;s', 'it&apos;s', 'it%27s'])
      expect(redactText(form, quoted), form).toBe('<secret>Q</secret>');
  });

  it("types a secret's value where a typed argument names it, and nowhere else", () => {
    const secrets = new Map([['X-PASSWORD', 'password123']]);
    const type = findContract('browser_type');
    const args = { ref: 'e2', text: 'X-PASSWORD' };
    expect(withSecretValues(type, args, secrets)).toEqual({ ref: 'e2', text: 'password123' });
    expect(args.text).toBe('X-PASSWORD');
    expect(withSecretValues(type, { ref: 'e2', text: 'other' }, secrets).text).toBe('other');
    const fill = findContract('browser_fill_form');
    expect(
      withSecretValues(
        fill,
        {
          fields: [
            { ref: 'e4', value: 'John' },
            { ref: 'e6', value: 'X-PASSWORD' },
            { ref: 'e7', value: true },
          ],
        },
        secrets,
      ),
    ).toEqual({
      fields: [
        { ref: 'e4', value: 'John' },
        { ref: 'e6', value: 'password123' },
        { ref: 'e7', value: true },
      ],
    });
    // A tool without secretArgs gets the name as written.
    const nav = findContract('browser_navigate');
    expect(withSecretValues(nav, { url: 'X-PASSWORD' }, secrets)).toEqual({ url: 'X-PASSWORD' });
  });
});
