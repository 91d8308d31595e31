import path from 'node:path';

/** Everything the suite runs is the BUILT workspace (`pnpm build`), never sources. */
const WORKSPACE_DIR = path.resolve(import.meta.dirname, '..');

export const EXTENSION_DIR = path.join(WORKSPACE_DIR, 'extension', 'dist');
export const SERVER_BIN = path.join(WORKSPACE_DIR, 'mcp-server', 'bin', 'browser-agent-mcp.js');
/** The launcher only imports this; its absence means the server was never built. */
export const SERVER_ENTRY = path.join(WORKSPACE_DIR, 'mcp-server', 'dist', 'cli.js');

/** No browser download: the system Chromium unless CHROME_PATH names another one. */
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
