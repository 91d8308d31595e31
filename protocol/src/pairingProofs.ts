/**
 * The strings each side signs with the pairing secret K (HMAC-SHA-256, base64). Shared so the
 * daemon (node:crypto) and the extension (WebCrypto) sign byte-identical messages.
 */
export const proofMessage = {
  daemon: (extensionNonce: string, daemonNonce: string): string =>
    `daemon|${extensionNonce}|${daemonNonce}`,
  extension: (daemonNonce: string, extensionNonce: string): string =>
    `extension|${daemonNonce}|${extensionNonce}`,
} as const;

/** Domain separation for deriving K from the ECDH secret. */
export const PAIRING_KDF_LABEL = 'browser-agent-pairing-v1';

/**
 * The one-time pairing code (see docs/security.md, "Pairing that needs the person"). The daemon
 * mints it and keeps it in memory; the user reads it from the agent's NOT_PAIRED error and types
 * it into the side panel. Ten Crockford base-32 characters (50 bits), stretched with PBKDF2 under a
 * salt the daemon picks, so a fake daemon that collects the extension's proof cannot search the
 * code space offline, and a fake extension gets nothing derived from the code at all: the
 * extension proves first, and the daemon answers with its own proof only after checking it.
 */
export const PAIRING_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PAIRING_CODE_CHARS = 10;
export const PAIRING_CODE_PBKDF2_ITERATIONS = 200_000;
/** Wrong proofs a code survives; then the daemon mints a new one. */
export const PAIRING_CODE_MAX_TRIES = 3;

/** "ABCDE-FGHJK" from random bytes (one byte per character, 5 bits of each). */
export function formatOneTimeCode(bytes: Uint8Array): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_CHARS; i++)
    code += PAIRING_CODE_ALPHABET[(bytes[i] ?? 0) & 31] ?? '0';
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What the user typed, as the daemon minted it: case, spaces and dashes do not matter; O, I and L read as 0, 1, 1. */
export function normalizeOneTimeCode(typed: string): string | undefined {
  const clean = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (clean.length !== PAIRING_CODE_CHARS) return undefined;
  for (const ch of clean) if (!PAIRING_CODE_ALPHABET.includes(ch)) return undefined;
  return `${clean.slice(0, 5)}-${clean.slice(5)}`;
}

/** Messages signed with the stretched code, binding both ECDH public keys and the pairing id. */
export const codeProofMessage = {
  extension: (extensionKey: string, daemonKey: string, pairingId: string): string =>
    `code-extension|${extensionKey}|${daemonKey}|${pairingId}`,
  daemon: (extensionKey: string, daemonKey: string, pairingId: string): string =>
    `code-daemon|${extensionKey}|${daemonKey}|${pairingId}`,
} as const;
