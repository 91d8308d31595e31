/**
 * The HTTP transport's credential: a bearer token, generated once and kept in
 * `<state dir>/http-token` (0600 inside the 0700 state directory), so another OS user on the
 * machine, who can reach a loopback port but not the user's files, cannot open a session.
 * The server prints it in the client config snippet at start.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { ensureStateDir } from '../../shared/paths.js';

const TOKEN_FILE = 'http-token';

/** Where the token is kept: the full path a refused client is told (#27.5). */
export function httpTokenPath(stateDir: string): string {
  return join(stateDir, TOKEN_FILE);
}

/**
 * The refusal of a request without the token. 403, with no `WWW-Authenticate`: MCP clients read
 * any 401 as "run OAuth" (discovery of /.well-known/oauth-*, then a browser login: the Inspector
 * CLI ends with "Interactive OAuth requires a TTY"), and never show this text. There is no OAuth
 * here to discover; a 403 makes the client show the message, which says where the token is.
 */
export const TOKEN_REFUSAL_STATUS = 403;

export function tokenRefusal(tokenFile: string | undefined): string {
  const where =
    tokenFile === undefined
      ? 'in http-token in its state directory'
      : `in ${tokenFile} (on the machine that runs the server)`;
  return `No valid bearer token. Send "Authorization: Bearer <token>" with every request (an MCP client's "headers" setting): the token is ${where}, and the server printed it at start.`;
}

/** The stored token, or a new one written 0600. */
export function loadOrCreateHttpToken(stateDir: string): string {
  ensureStateDir(stateDir);
  const path = httpTokenPath(stateDir);
  if (existsSync(path)) {
    chmodSync(path, 0o600);
    const stored = readFileSync(path, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(stored)) return stored;
  }
  const token = randomBytes(32).toString('base64url');
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return token;
}

/** True when the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasBearer(headers: IncomingHttpHeaders, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a client puts in its MCP config to reach this server. */
export function httpConfigSnippet(url: string, token: string | undefined): string {
  const entry = {
    type: 'http',
    url,
    ...(token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } }),
  };
  return JSON.stringify({ mcpServers: { 'browser-agent': entry } }, null, 2);
}
