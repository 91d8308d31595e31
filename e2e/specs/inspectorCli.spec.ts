/**
 * The official MCP Inspector CLI as a second client (#16): each run starts the server the way a
 * CLI-style client does (one server per call), against local servers that misbehave.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../harness.js';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';
import { startFaultSite } from '../fixtures/faultSite.js';

const run = promisify(execFile);
const INSPECTOR = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'mcp-inspector');

test('the Inspector CLI gets honest results and a tab that answers after a hung navigation', async ({
  bridge,
  sandbox,
}) => {
  const faults = await startFaultSite();
  try {
    // Starts the daemon and connects the relay; the Inspector's servers then join it.
    await bridge.connectClient('inspector-warmup');
    // The Inspector hands its server only the variables given with -e (and PATH, HOME, …).
    const env = {
      ...Object.fromEntries(
        Object.entries(sandbox.env).filter(
          ([k]) => k.startsWith('BROWSER_AGENT_') || k === 'TMPDIR',
        ),
      ),
      BROWSER_AGENT_SESSION_KEY: 'inspector',
      BROWSER_AGENT_SESSION_GRACE_MS: '20000',
      BROWSER_AGENT_NAVIGATION_TIMEOUT_MS: '1500',
    };
    const inspect = async (tool: string, args: Record<string, string>) => {
      const { stdout } = await run(
        INSPECTOR,
        [
          '--cli',
          ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
          process.execPath,
          SERVER_BIN,
          '--method',
          'tools/call',
          '--tool-name',
          tool,
          ...(Object.keys(args).length > 0
            ? ['--tool-arg', ...Object.entries(args).map(([k, v]) => `${k}=${v}`)]
            : []),
        ],
        { env: { ...process.env, ...env }, timeout: 45_000 },
      ).catch((err: { stdout?: string; stderr?: string }) => ({
        // A tool error: the Inspector prints {"error":…} and exits non-zero.
        stdout:
          `${err.stdout ?? ''}\n${err.stderr ?? ''}`
            .split('\n')
            .find((line) => line.startsWith('{"error"')) ?? '{}',
      }));
      return JSON.parse(stdout) as {
        error?: { code: string; message: string };
        content: { type: string; text: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
    };
    const text = (r: { content?: { text: string }[] }) =>
      (r.content ?? []).map((c) => c.text).join('\n');

    const missing = await inspect('browser_navigate', { url: faults.url('/status/404') });
    expect(text(missing)).toContain('- HTTP status: 404 Not Found');
    expect(missing.structuredContent).toMatchObject({ status: 404, ok: false });

    const hung = await inspect('browser_navigate', { url: faults.url('/never?inspector') });
    // The Inspector CLI reports a tool error by its code and exits non-zero.
    expect(hung.error?.code).toBe('tool_is_error');
    // The hint's step, from the next run: the same session's tab answers at once.
    const snap = await inspect('browser_snapshot', {});
    expect(snap.error).toBeUndefined();
    expect(snap.isError).not.toBe(true);
    expect(text(snap)).toContain('heading "Status 404"');
  } finally {
    await faults.close();
  }
});
