/** Streamable HTTP and SSE instead of stdio (`--port`; docs/configuration.md#streamable-http---port). */
import { setting } from '../setting.js';
import { DEFAULT_HTTP_HOST } from '../../http/httpOptions.js';
import { bool, positiveInt, textList } from './values.js';

export const httpSettings = {
  port: setting({
    flag: 'port',
    kind: 'int',
    arg: '<n>',
    help: 'Serve MCP over Streamable HTTP on this port instead of stdio (0: a free port).',
    theirs: [
      {
        flag: '--port',
        note: 'Streamable HTTP at `/mcp` and `/`, SSE at `/sse`; a bearer token unless `--no-token`',
      },
    ],
  }),
  host: setting({
    flag: 'host',
    kind: 'string',
    default: DEFAULT_HTTP_HOST,
    arg: '<h>',
    help: 'Address to bind.',
    needs: 'port',
    theirs: [{ flag: '--host' }],
  }),
  noToken: setting({
    flag: 'no-token',
    kind: 'bool',
    help: 'On loopback: no bearer token (by default clients must send the one the server prints; it is kept in <state dir>/http-token).',
    needs: 'port',
  }),
  sessionIdleSeconds: setting({
    key: 'http.sessionIdleSeconds',
    flag: 'session-idle',
    env: 'BROWSER_AGENT_HTTP_SESSION_IDLE_SECONDS',
    kind: 'int',
    schema: positiveInt('a positive integer (seconds)'),
    // Long enough for an agent thinking between calls; short enough that abandoned sessions go.
    default: 30 * 60,
    arg: '<s>',
    help: 'With --port: end a session (closing its tabs) after this many idle seconds, no request open.',
  }),
  allowedHosts: setting({
    key: 'http.allowedHosts',
    flag: 'allowed-hosts',
    env: 'BROWSER_AGENT_ALLOWED_HOSTS',
    kind: 'list',
    schema: textList('host names like "example.test:8931"', 100),
    arg: '<list>',
    help: 'Host names served besides loopback and --host ("name" or "name:port"; "*" turns the Host check off).',
    needs: 'port',
    theirs: [
      {
        flag: '--allowed-hosts',
        note: '`name` or `name:port`; `*` turns the Host check off (the Origin check stays)',
      },
      { key: 'server.allowedHosts' },
    ],
  }),
  sharedBrowserContext: setting({
    key: 'http.sharedBrowserContext',
    flag: 'shared-browser-context',
    env: 'BROWSER_AGENT_SHARED_BROWSER_CONTEXT',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Every HTTP/SSE client drives the same session and tabs.',
    needs: 'port',
    theirs: [
      {
        flag: '--shared-browser-context',
        note: 'every HTTP/SSE client drives the same session and tabs',
      },
      { key: 'sharedBrowserContext' },
    ],
  }),
  heartbeatSeconds: setting({
    key: 'http.heartbeatSeconds',
    env: 'BROWSER_AGENT_HTTP_HEARTBEAT_SECONDS',
    kind: 'int',
    schema: positiveInt('a positive integer (seconds)'),
    // A client that cannot answer a ping within this long is gone (or hung): its session ends.
    default: 30,
    help: 'How often a client with an open stream is pinged; one that does not answer in time loses its session.',
  }),
};
