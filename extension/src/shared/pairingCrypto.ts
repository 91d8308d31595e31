/**
 * WebCrypto twins of the daemon's pairing crypto (mcp-server/src/daemon/pairingStore.ts and
 * extensionHandshake.ts): same messages, same derivations, byte for byte.
 */
import { PAIRING_CODE_PBKDF2_ITERATIONS, PAIRING_KDF_LABEL } from '@browser-agent/protocol';

const utf8 = new TextEncoder();

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (const b of view) s += String.fromCharCode(b);
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const s = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(parts.reduce((n, p) => n + p.length, 0)));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concat(...parts)));
}

async function hmacKey(secretB64: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    fromBase64(secretB64),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

export async function sign(secretB64: string, message: string): Promise<string> {
  return toBase64(await crypto.subtle.sign('HMAC', await hmacKey(secretB64), utf8.encode(message)));
}

export async function verify(
  secretB64: string,
  message: string,
  proofB64: string,
): Promise<boolean> {
  try {
    return await crypto.subtle.verify(
      'HMAC',
      await hmacKey(secretB64),
      fromBase64(proofB64),
      utf8.encode(message),
    );
  } catch {
    return false;
  }
}

export async function pairingIdOf(secretB64: string): Promise<string> {
  const digest = await sha256(utf8.encode('browser-agent-pairing-id|'), fromBase64(secretB64));
  return toBase64(digest).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, 16);
}

export function newNonce(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(24)));
}

/** ECDH P-256 key pair for a first pairing; the public key goes out raw, base64. */
export async function newEcdhKey(): Promise<{ keys: CryptoKeyPair; publicKey: string }> {
  const keys = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, [
    'deriveBits',
  ]);
  return { keys, publicKey: toBase64(await crypto.subtle.exportKey('raw', keys.publicKey)) };
}

/** The pairing secret K, from our key and the daemon's. */
export async function derivePairing(
  own: { keys: CryptoKeyPair; publicKey: string },
  daemonKey: string,
): Promise<string> {
  const peer = await crypto.subtle.importKey(
    'raw',
    fromBase64(daemonKey),
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const shared = new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, own.keys.privateKey, 256),
  );
  const secret = await sha256(
    utf8.encode(PAIRING_KDF_LABEL),
    shared,
    utf8.encode(own.publicKey),
    utf8.encode(daemonKey),
  );
  return toBase64(secret);
}

/** The HMAC key of the one-time code's proofs (base64): PBKDF2 of the code under the daemon's salt. */
export async function oneTimeCodeKey(code: string, saltB64: string): Promise<string> {
  const base = await crypto.subtle.importKey('raw', utf8.encode(code), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: fromBase64(saltB64),
      iterations: PAIRING_CODE_PBKDF2_ITERATIONS,
    },
    base,
    256,
  );
  return toBase64(bits);
}
