import { describe, expect, it } from 'vitest';
import { ToolResponse } from './toolResponse.js';
import { redactText } from '../settings/secrets.js';

const secrets = new Map([['API_TOKEN', 'tok-Secret+1']]);
const redact = (text: string) => redactText(text, secrets);

describe('a response rewritten for --secrets', () => {
  it('leaves out of a storage state the cookies and items that hold a secret, and says so (#25.4)', () => {
    const response = new ToolResponse();
    const cookie = (name: string, value: string) => ({
      name,
      value,
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax' as const,
    });
    response.setResult({
      content: [{ type: 'text', text: 'Read the storage state.' }],
      serverData: {
        storageState: {
          cookies: [cookie('sid', 'plain-session'), cookie('auth', 'Bearer tok-Secret%2B1')],
          origins: [
            {
              origin: 'http://127.0.0.1:8000',
              localStorage: [
                { name: 'theme', value: 'dark' },
                { name: 'token', value: '{"t":"tok-Secret+1"}' },
              ],
            },
          ],
        },
      },
    });
    response.rewriteAll(redact);
    const state = response.take('storageState');
    expect(state?.cookies.map((c) => c.name)).toEqual(['sid']);
    expect(state?.origins[0]?.localStorage).toEqual([{ name: 'theme', value: 'dark' }]);
    expect(JSON.stringify(state)).not.toContain('tok-Secret');
    const text = response
      .render()
      .content.map((p) => (p.type === 'text' ? p.text : ''))
      .join('\n');
    expect(text).toContain('1 cookie(s) and 1 localStorage item(s) that hold a --secrets value');
  });

  it('keeps a storage state without secrets whole, with no note', () => {
    const response = new ToolResponse();
    response.setResult({
      content: [{ type: 'text', text: 'Read the storage state.' }],
      serverData: {
        storageState: {
          cookies: [],
          origins: [{ origin: 'http://a.test', localStorage: [{ name: 'k', value: 'v' }] }],
        },
      },
    });
    response.rewriteAll(redact);
    expect(response.take('storageState')?.origins[0]?.localStorage).toHaveLength(1);
    expect(response.render().content).toHaveLength(1);
  });
});
