/** Bumped whenever a frame or a tool contract changes shape; both ends refuse a mismatch. */
export const PROTOCOL_VERSION = 1;

/** Loopback port the daemon listens on for the extension's relay. */
export const DEFAULT_BRIDGE_PORT = 3026;

/**
 * The manifest `key` pins the extension id, so the daemon can accept exactly one WebSocket
 * Origin. The id is derived from the key: sha256 of the DER public key, first 32 hex digits
 * mapped 0-f to a-p (checked by a unit test).
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA4FBUcYPJ3lZhOWDos2o9CN+ZdDCdPM8RxhJgugqNKIanMm2BlY3u2bN7DYnirlJGQFKSFoTlJziTsE1QM4J6f7Fh0MCeM68zIO3bim1ff4+UP3FQ2vPxydUcwJX2+uBrEYV6vMAvxguPZTb2ATYHUEKGqZDIPF652o8e2JSvRhOiZswtlH+hNGy/tJu/O/B+/rwEyrNRDeFdfqA2/t8TKFvZfT4UWIQ+MXNArIXLiNIKnOP1jpRZiog/FMMNsIOTystlzXraRk0cuQxk0FIulNw4a40uvEA1D5ZK/uTrv/xUZoHXNuDiPMjryJt6FHdQsEIMC1HWrnkmdaaFApNRzwIDAQAB';
export const EXTENSION_ID = 'ipilknjhbkhclneddmimelglabojbfki';
export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;

/** Longest id, session id or action name a request or response may carry. */
export const MAX_ID_CHARS = 100;

/** Frames above this size are refused before parsing, on every link. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** Page the relay runs in: the side panel, or the same page opened as a tab in launch mode. */
export const RELAY_PAGE_PATH = 'src/sidepanel/index.html';
