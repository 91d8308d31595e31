import { describe, expect, it } from 'vitest';
import { newTabState } from '../tabStates';
import { hideBodySecrets, hideTypedSecrets, rememberTypedSecret } from './requestSecrets';

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

  // #25.4: a secret field is known by its type and autocomplete; its name may say nothing.
  it('hides values typed into secret fields by value, whatever the field is named, in every encoding', () => {
    const state = newTabState();
    rememberTypedSecret(state, 'p@ss word&<1>"');
    rememberTypedSecret(state, '123'); // too short to hide by value
    const typed = state.typedSecrets;
    expect(typed).toEqual(['p@ss word&<1>"']);
    const form = `login=ada&x2=${encodeURIComponent('p@ss word&<1>"')}&n=123`;
    expect(hideBodySecrets(form, 'application/x-www-form-urlencoded', typed)).toBe(
      'login=ada&x2=[hidden]&n=123',
    );
    const plus = 'x2=p%40ss+word%26%3C1%3E%22';
    expect(hideBodySecrets(plus, 'application/x-www-form-urlencoded', typed)).toBe('x2=[hidden]');
    const json = JSON.stringify({ a: { f1: 'p@ss word&<1>"' } });
    expect(hideBodySecrets(json, 'application/json', typed)).toBe('{"a":{"f1":"[hidden]"}}');
    expect(hideTypedSecrets('<p>p@ss word&amp;&lt;1&gt;&quot;</p>', typed)).toBe('<p>[hidden]</p>');
    expect(hideTypedSecrets('echo: p@ss word&<1>"!', typed)).toBe('echo: [hidden]!');
  });

  it('keeps the latest 20 typed values, each once', () => {
    const state = newTabState();
    for (let i = 0; i < 25; i += 1) rememberTypedSecret(state, `secret-${i}`);
    rememberTypedSecret(state, 'secret-24');
    expect(state.typedSecrets).toHaveLength(20);
    expect(state.typedSecrets[0]).toBe('secret-5');
    expect(state.typedSecrets.at(-1)).toBe('secret-24');
  });
});
