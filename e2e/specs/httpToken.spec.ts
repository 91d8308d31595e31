/**
 * HTTP mode without the token (#27.5): the MCP Inspector CLI shows the server's message, with the
 * token file's full path, instead of starting OAuth ("Interactive OAuth requires a TTY"); with the
 * token it connects.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { stopProcess } from '@browser-agent/testkit/procfs';
import { expect, test } from '../harness.js';
import { startHttpServer } from '../httpClient.js';

const run = promisify(execFile);
const INSPECTOR = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'mcp-inspector');

test('the Inspector CLI: told where the token is without it, connected with it', async ({
  sandbox,
}) => {
  const { child, url, token } = await startHttpServer({
    BROWSER_AGENT_HOME: sandbox.home,
    BROWSER_AGENT_PORT: String(sandbox.port),
  });
  try {
    const inspect = (headers: string[]) =>
      run(
        INSPECTOR,
        [
          '--cli',
          '--transport',
          'http',
          '--server-url',
          url.href,
          ...headers,
          '--method',
          'tools/list',
        ],
        { timeout: 45_000 },
      ).then(
        ({ stdout, stderr }) => ({ ok: true, out: `${stdout}\n${stderr}` }),
        (err: { stdout?: string; stderr?: string }) => ({
          ok: false,
          out: `${err.stdout ?? ''}\n${err.stderr ?? ''}`,
        }),
      );

    const without = await inspect([]);
    expect(without.ok).toBe(false);
    expect(without.out).not.toContain('OAuth');
    expect(without.out).toContain('No valid bearer token');
    expect(without.out).toContain(path.join(sandbox.home, 'http-token'));

    const withToken = await inspect(['--header', `Authorization: Bearer ${token ?? ''}`]);
    expect(withToken.ok, withToken.out).toBe(true);
    expect(withToken.out).toContain('browser_navigate');
    // The session with the token started the daemon; teardown stops it once it is known.
    await expect.poll(() => sandbox.daemonPid(), { timeout: 15_000 }).toBeDefined();
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});
