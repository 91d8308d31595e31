/**
 * The strings each side signs with the pairing secret K (HMAC-SHA-256, base64). Shared so the
 * daemon (node:crypto) and the extension (WebCrypto) sign byte-identical messages.
 */
export const proofMessage = {
  daemon: (extensionNonce: string, daemonNonce: string): string =>
    `daemon|${extensionNonce}|${daemonNonce}`,
  extension: (daemonNonce: string, extensionNonce: string): string =>
    `extension|${daemonNonce}|${extensionNonce}`,
  confirm: (extensionKey: string, daemonKey: string): string =>
    `confirm|${extensionKey}|${daemonKey}`,
} as const;

/** Domain separation for deriving K and the code shown to the user from the ECDH secret. */
export const PAIRING_KDF_LABEL = 'browser-agent-pairing-v1';
export const PAIRING_CODE_LABEL = 'browser-agent-pairing-code-v1';

/** Six digits, grouped for reading aloud: "123 456". */
export function formatPairingCode(first4Bytes: Uint8Array): string {
  const n =
    (((first4Bytes[0] ?? 0) << 24) |
      ((first4Bytes[1] ?? 0) << 16) |
      ((first4Bytes[2] ?? 0) << 8) |
      (first4Bytes[3] ?? 0)) >>>
    0;
  const digits = String(n % 1_000_000).padStart(6, '0');
  return `${digits.slice(0, 3)} ${digits.slice(3)}`;
}
