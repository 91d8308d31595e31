/**
 * The built workspace the e2e suite and the bench drive (`pnpm build`, never sources), the
 * browser they drive it in, and the flags they start that browser with.
 */
import path from 'node:path';
import { QUIET_FLAGS } from '@browser-agent/mcp-server/chromiumFlags';

/** From src/ (types) and dist/ (run) alike: both sit one level below testkit/. */
export const WORKSPACE_DIR = path.resolve(import.meta.dirname, '..', '..');

export const EXTENSION_DIR = path.join(WORKSPACE_DIR, 'extension', 'dist');
export const SERVER_BIN = path.join(WORKSPACE_DIR, 'mcp-server', 'bin', 'browser-agent-mcp.js');
/** The launcher only imports this; its absence means the server was never built. */
export const SERVER_ENTRY = path.join(WORKSPACE_DIR, 'mcp-server', 'dist', 'cli.js');

/** No browser download: the system Chromium unless CHROME_PATH names another one. */
export const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';

/**
 * A Chromium a test or the bench starts itself (not through launch mode): launch mode's quiet
 * flags, always without the sandbox (containers, root), and no QUIC, so every request goes over
 * the HTTP/1.1 the fixture sites speak.
 */
export const TEST_CHROMIUM_FLAGS: readonly string[] = [
  ...QUIET_FLAGS,
  '--no-sandbox',
  '--disable-quic',
];
