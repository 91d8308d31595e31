/**
 * Does a submit or click look like it cannot be undone: buying or paying, sending a message,
 * deleting, creating an account, changing a password, downloading a file? (issue #19)
 *
 * Decided from what the page shows the user, not from what it will do (which only the server
 * knows): the words of the button or link (its text, value, aria-label, title, in several
 * languages), the form's fields (a card number, a new-password field), its method (a GET
 * search form is never judged by its button alone), and for links whether they navigate at
 * all. docs/security.md says what this misses.
 */
import type { IrreversibleKind } from '../shared/messages';
import { secretKind } from '../shared/secretKind';
import { makeDomNames, type DomNames } from '../background/page/domNames';
import { makeDomRoles, type DomRoles } from '../background/page/domRoles';

/**
 * Words and phrases per kind. Latin-script entries match as whole words; CJK entries anywhere.
 * Lower case, accents kept (the text is lower-cased, not stripped).
 */
const WORDS: Record<Exclude<IrreversibleKind, 'download a file'>, readonly string[]> = {
  'buy or pay': [
    // en
    'buy',
    'buy now',
    'purchase',
    'pay',
    'pay now',
    'checkout',
    'check out',
    'place order',
    'place your order',
    'complete order',
    'complete purchase',
    'confirm order',
    'confirm payment',
    'order now',
    'subscribe',
    'donate',
    'book now',
    'transfer',
    'send money',
    // de
    'kaufen',
    'jetzt kaufen',
    'bezahlen',
    'zahlen',
    'zahlungspflichtig bestellen',
    'jetzt bestellen',
    'bestellen',
    'überweisen',
    // fr
    'acheter',
    'payer',
    'commander',
    'valider la commande',
    'passer la commande',
    // es / pt / it
    'comprar',
    'pagar',
    'realizar pedido',
    'finalizar compra',
    'acquista',
    'paga',
    'ordina',
    // nl / pl
    'kopen',
    'betalen',
    'afrekenen',
    'kup',
    'zapłać',
    // cjk
    '購入',
    '支払',
    '注文を確定',
    '购买',
    '支付',
    '付款',
    '结算',
    '구매',
    '결제',
  ],
  'send a message': [
    'send',
    'send message',
    'send email',
    'send mail',
    'reply',
    'reply all',
    'post',
    'publish',
    'tweet',
    'share',
    'senden',
    'absenden',
    'antworten',
    'veröffentlichen',
    'envoyer',
    'répondre',
    'publier',
    'enviar',
    'responder',
    'publicar',
    'invia',
    'rispondi',
    'pubblica',
    'verzenden',
    'versturen',
    'wyślij',
    '送信',
    '投稿',
    '发送',
    '发布',
    '보내기',
    '전송',
  ],
  delete: [
    'delete',
    'remove',
    'erase',
    'destroy',
    'discard',
    'empty trash',
    'delete account',
    'close account',
    'deactivate',
    'löschen',
    'entfernen',
    'supprimer',
    'effacer',
    'eliminar',
    'borrar',
    'excluir',
    'apagar',
    'elimina',
    'cancella',
    'verwijderen',
    'usuń',
    '削除',
    '删除',
    '삭제',
  ],
  'create an account': [
    'sign up',
    'signup',
    'create account',
    'create an account',
    'create my account',
    'register',
    'join now',
    'registrieren',
    'konto erstellen',
    "s'inscrire",
    'créer un compte',
    'registrarse',
    'crear cuenta',
    'criar conta',
    'cadastrar',
    'registrati',
    'crea account',
    'account aanmaken',
    'registreren',
    'zarejestruj',
    '新規登録',
    '注册',
    '회원가입',
  ],
  'change a password': [
    'change password',
    'reset password',
    'update password',
    'set password',
    'save password',
    'passwort ändern',
    'kennwort ändern',
    'changer le mot de passe',
    'modifier le mot de passe',
    'cambiar contraseña',
    'alterar senha',
    'cambia password',
    'wachtwoord wijzigen',
    'パスワードを変更',
    '修改密码',
    '비밀번호 변경',
  ],
};

/** File types whose link is a download more than a page. */
const DOWNLOAD_EXTENSIONS =
  /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|exe|msi|dmg|pkg|deb|rpm|apk|appimage|iso|img|bin|jar)$/i;

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function containsPhrase(text: string, phrase: string): boolean {
  if (CJK.test(phrase)) return text.includes(phrase);
  // Whole words only: "pay" is not in "display", "post" not in "postcode".
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/** The kinds the words name, from the label alone; the label is short (a button), not a page. */
export function kindsInLabel(label: string): IrreversibleKind[] {
  const text = normalize(label).slice(0, 200);
  if (text === '') return [];
  return (Object.keys(WORDS) as (keyof typeof WORDS)[]).filter((kind) =>
    WORDS[kind].some((phrase) => containsPhrase(text, phrase)),
  );
}

/** What a form's fields say about its submit, whatever its button reads. */
export interface FormFacts {
  method: string;
  /** Autocomplete tokens and input types of its fields. */
  autocomplete: readonly string[];
  types: readonly string[];
}

export function kindsInForm(facts: FormFacts): IrreversibleKind[] {
  const kinds: IrreversibleKind[] = [];
  const tokens = facts.autocomplete.flatMap((a) => a.toLowerCase().split(/\s+/));
  if (tokens.some((t) => t.startsWith('cc-') && t !== 'cc-name')) kinds.push('buy or pay');
  const newPassword = tokens.includes('new-password');
  const current = tokens.includes('current-password');
  const passwords = facts.types.filter((t) => t === 'password').length;
  if (newPassword && current) kinds.push('change a password');
  else if (newPassword || passwords >= 2) kinds.push('create an account');
  return kinds;
}

/**
 * A submit: the submitter's words count for POST-like forms; a GET form (a search, a filter)
 * is judged by its fields alone, since it only asks for a page.
 */
export function submitKinds(label: string, facts: FormFacts): IrreversibleKind[] {
  const fromFields = kindsInForm(facts);
  const method = facts.method.toLowerCase();
  const fromLabel = method === 'get' || method === 'dialog' ? [] : kindsInLabel(label);
  return [...new Set([...fromFields, ...fromLabel])];
}

/** A link: a download, or one whose words say so and that does more than open a page. */
export function linkKinds(
  label: string,
  link: { download: boolean; href: string; dataMethod: string; role: string },
): IrreversibleKind[] {
  const url = (() => {
    try {
      return new URL(link.href);
    } catch {
      return undefined;
    }
  })();
  if (link.download || (url !== undefined && DOWNLOAD_EXTENSIONS.test(url.pathname)))
    return ['download a file'];
  const navigates =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    // `href="#"` (an empty fragment, which URL reports as no hash) stays on the page.
    url.hash === '' &&
    !link.href.includes('#') &&
    link.role !== 'button' &&
    (link.dataMethod === '' || link.dataMethod.toLowerCase() === 'get');
  // A plain link only opens a page (its words, e.g. "Delete account settings", lead there).
  return navigates ? [] : kindsInLabel(label);
}

/**
 * The snapshot's own name computation (page/domNames.ts: aria-labelledby, aria-label, alt,
 * labels, content, title), so the gate reads the name the agent and the user see (issue #25):
 * a delete button named only by aria-labelledby or by its image's alt is a delete button. The
 * factories are self-contained DOM code with no privilege; the guard is bundled on its own.
 */
let model: { roles: DomRoles; names: DomNames } | undefined;
function accessibleName(element: Element): string {
  if (model === undefined) {
    const roles = makeDomRoles();
    const names = makeDomNames(roles, {
      // Never a secret field's value inside a name (it goes into the question).
      isSecret: (el) =>
        el instanceof HTMLInputElement &&
        secretKind(el.type, el.getAttribute('autocomplete'), el.name || el.id) !== undefined,
      mask: () => 0,
    });
    model = { roles, names };
  }
  return model.names.nameOf(element, model.roles.roleOf(element));
}

/** The words a user reads on an element: its accessible name, text, value, aria-label, title. */
export function labelOf(element: Element): string {
  const parts = [
    accessibleName(element),
    element.getAttribute('aria-label'),
    element instanceof HTMLInputElement ? element.value : element.textContent,
    element.getAttribute('title'),
  ];
  const words: string[] = [];
  for (const part of parts) {
    const text = typeof part === 'string' ? part.replace(/\s+/g, ' ').trim() : '';
    if (text !== '' && !words.includes(text)) words.push(text);
  }
  return words.join(' ').slice(0, 120);
}

/**
 * The control a submit without a submitter (`requestSubmit()`, `submit()`, implicit) is judged
 * by: the form's own default button, the first submit control it owns, as Enter would press.
 */
export function defaultSubmitter(form: HTMLFormElement): HTMLElement | null {
  for (const el of Array.from(form.elements)) {
    if (el instanceof HTMLButtonElement && el.type === 'submit') return el;
    if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image')) return el;
  }
  return null;
}

export function formFacts(form: HTMLFormElement, submitter: HTMLElement | null): FormFacts {
  const fields = [...form.elements].filter(
    (e): e is HTMLInputElement => e instanceof HTMLInputElement,
  );
  const method =
    (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) &&
    submitter.hasAttribute('formmethod')
      ? submitter.formMethod
      : form.method;
  return {
    method,
    autocomplete: fields.map((f) => f.autocomplete ?? ''),
    types: fields.map((f) => f.type),
  };
}

/** The clickable element a click lands on, if it is a button or a link. */
export function clickable(target: EventTarget | null): Element | undefined {
  if (!(target instanceof Element)) return undefined;
  return (
    target.closest(
      'button, a[href], input[type=submit], input[type=button], input[type=image], [role=button], [role=link], [role=menuitem]',
    ) ?? undefined
  );
}

/** The kinds of a click on `element`, submit buttons excluded (their submit is judged). */
export function clickKinds(element: Element): IrreversibleKind[] {
  const label = labelOf(element);
  if (element instanceof HTMLAnchorElement) {
    return linkKinds(label, {
      download: element.hasAttribute('download'),
      href: element.href,
      dataMethod: element.getAttribute('data-method') ?? '',
      role: element.getAttribute('role') ?? '',
    });
  }
  const isSubmit =
    (element instanceof HTMLButtonElement && element.type === 'submit' && element.form !== null) ||
    (element instanceof HTMLInputElement &&
      (element.type === 'submit' || element.type === 'image') &&
      element.form !== null);
  // A form's submit button is judged at its submit, with the form's method and fields.
  if (isSubmit) return [];
  return kindsInLabel(label);
}
