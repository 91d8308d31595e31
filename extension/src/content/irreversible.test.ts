import { describe, expect, it } from 'vitest';
import { kindsInLabel, linkKinds, submitKinds } from './irreversible';

const post = { method: 'post', autocomplete: [], types: ['text'] };
const link = { download: false, href: 'https://shop.test/next', dataMethod: '', role: '' };

describe('kindsInLabel', () => {
  it('names buying, sending, deleting, signing up and password changes, in several languages', () => {
    expect(kindsInLabel('Place order')).toEqual(['buy or pay']);
    expect(kindsInLabel('Zahlungspflichtig bestellen')).toEqual(['buy or pay']);
    expect(kindsInLabel('Valider la commande')).toEqual(['buy or pay']);
    expect(kindsInLabel('购买')).toEqual(['buy or pay']);
    expect(kindsInLabel('Send message')).toEqual(['send a message']);
    expect(kindsInLabel('Enviar')).toEqual(['send a message']);
    expect(kindsInLabel('Supprimer')).toEqual(['delete']);
    expect(kindsInLabel('削除')).toEqual(['delete']);
    expect(kindsInLabel('Create account')).toEqual(['create an account']);
    expect(kindsInLabel('Passwort ändern')).toEqual(['change a password']);
  });
  it('matches whole words only, and leaves harmless buttons alone', () => {
    expect(kindsInLabel('Display settings')).toEqual([]);
    expect(kindsInLabel('Postcode lookup')).toEqual([]);
    expect(kindsInLabel('Sign in')).toEqual([]);
    expect(kindsInLabel('Show more')).toEqual([]);
    expect(kindsInLabel('Search')).toEqual([]);
    expect(kindsInLabel('')).toEqual([]);
  });
});

describe('submitKinds', () => {
  it("judges a POST form by its button's words", () => {
    expect(submitKinds('Buy now', post)).toEqual(['buy or pay']);
    expect(submitKinds('Continue', post)).toEqual([]);
  });
  it('ignores the words of a GET form (a search), but not its fields', () => {
    expect(submitKinds('Delete', { ...post, method: 'get' })).toEqual([]);
    expect(
      submitKinds('Continue', { method: 'get', autocomplete: ['cc-number'], types: ['text'] }),
    ).toEqual(['buy or pay']);
  });
  it('tells a sign-up from a password change by the autocomplete tokens', () => {
    expect(
      submitKinds('Continue', {
        method: 'post',
        autocomplete: ['current-password', 'new-password'],
        types: ['password', 'password'],
      }),
    ).toEqual(['change a password']);
    expect(
      submitKinds('Continue', {
        method: 'post',
        autocomplete: ['new-password'],
        types: ['password'],
      }),
    ).toEqual(['create an account']);
    // A plain sign-in (one password, no new-password) is not irreversible.
    expect(
      submitKinds('Sign in', {
        method: 'post',
        autocomplete: ['current-password'],
        types: ['password'],
      }),
    ).toEqual([]);
  });
});

describe('linkKinds', () => {
  it('holds downloads', () => {
    expect(linkKinds('Report', { ...link, download: true })).toEqual(['download a file']);
    expect(linkKinds('Installer', { ...link, href: 'https://x.test/setup.exe' })).toEqual([
      'download a file',
    ]);
  });
  it('lets a plain link through, whatever its words, but not a script or data-method link', () => {
    expect(linkKinds('Delete account settings', link)).toEqual([]);
    expect(linkKinds('Delete', { ...link, href: 'https://shop.test/#' })).toEqual(['delete']);
    expect(linkKinds('Delete', { ...link, dataMethod: 'delete' })).toEqual(['delete']);
    expect(linkKinds('Delete', { ...link, role: 'button' })).toEqual(['delete']);
  });
});
