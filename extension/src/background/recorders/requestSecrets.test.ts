import { describe, expect, it } from 'vitest';
import { hideBodySecrets } from './requestSecrets';

describe('hideBodySecrets', () => {
  it('hides secret fields of form-encoded bodies and keeps the rest', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(hideBodySecrets('user=ada&password=hunter2&pw=x1', form)).toBe(
      'user=ada&password=[hidden]&pw=[hidden]',
    );
    expect(hideBodySecrets('q=cats', form)).toBe('q=cats');
  });

  it('hides secret fields of JSON bodies at any depth', () => {
    const body = JSON.stringify({
      user: 'ada',
      auth: { newPassword: 'hunter2', otp: 123456 },
      card: [{ cardNumber: '4111111111111111', cvc: '123', holder: 'Ada' }],
    });
    const shown = hideBodySecrets(body, 'application/json; charset=utf-8');
    expect(shown).not.toMatch(/hunter2|123456|4111111111111111|"123"/);
    expect(shown).toContain('"user":"ada"');
    expect(shown).toContain('"holder":"Ada"');
  });

  it("hides a password's confirmation and repeat fields, in form, JSON and multipart bodies", () => {
    const names = [
      'password_confirmation',
      'password2',
      'pass1',
      'new_password1',
      'passwordConfirm',
    ];
    const form = names.map((n, i) => `${n}=hunter${i}`).join('&');
    const shownForm = hideBodySecrets(`user=ada&${form}`, 'application/x-www-form-urlencoded');
    expect(shownForm).not.toMatch(/hunter\d/);
    expect(shownForm).toContain('user=ada');
    const json = JSON.stringify(Object.fromEntries(names.map((n, i) => [n, `hunter${i}`])));
    expect(hideBodySecrets(json, 'application/json')).not.toMatch(/hunter\d/);
    const multipart = `--b\r\nContent-Disposition: form-data; name="passwordConfirm"\r\n\r\nhunter9\r\n--b--`;
    expect(hideBodySecrets(multipart, 'multipart/form-data; boundary=b')).not.toContain('hunter9');
    expect(hideBodySecrets('passenger=Ada', 'application/x-www-form-urlencoded')).toBe(
      'passenger=Ada',
    );
  });

  it('leaves other bodies and bodies without secrets untouched', () => {
    expect(hideBodySecrets('{"hello":"world"}', 'application/json')).toBe('{"hello":"world"}');
    expect(hideBodySecrets('password=x', 'text/plain')).toBe('password=x');
    expect(hideBodySecrets('{not json', 'application/json')).toBe('{not json');
  });

  it('hides nested names, secret keys holding arrays or objects, and multipart parts', () => {
    const form = 'application/x-www-form-urlencoded';
    const shownForm = hideBodySecrets('user[name]=ada&user[password]=hunter2&pin=1234', form);
    expect(shownForm).not.toMatch(/hunter2|1234/);
    expect(shownForm).toContain('ada');
    const json = hideBodySecrets(
      JSON.stringify({ password: ['hunter2', 'hunter3'], secret: { value: 'deep-secret' }, ok: 1 }),
      'application/json',
    );
    expect(json).not.toMatch(/hunter2|hunter3|deep-secret/);
    expect(json).toContain('"ok":1');
    const multipart = [
      '--b',
      'Content-Disposition: form-data; name="login"',
      '',
      'ada',
      '--b',
      'Content-Disposition: form-data; name="user[password]"',
      '',
      'hunter2',
      '--b--',
    ].join('\r\n');
    const shownMultipart = hideBodySecrets(multipart, 'multipart/form-data; boundary=b');
    expect(shownMultipart).not.toContain('hunter2');
    expect(shownMultipart).toContain('ada');
  });
});
