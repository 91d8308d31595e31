/**
 * The three MCP servers the real-pages phase compares, each a child over stdio driven by the
 * same kind of SDK client, each on its own headless Chromium (the same binary) with a throwaway
 * profile: ours (`browser-agent-mcp --launch --headless --isolated`), Playwright MCP and Chrome
 * DevTools MCP at the versions pinned in bench/package.json. The peers are told not to phone
 * home (usage statistics, update checks, CrUX lookups); every page they load is on 127.0.0.1.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BenchClient, CallOutcome } from '../mcp/benchClient.js';
import { CHROME_PATH } from '../paths.js';
import type { Sandbox } from '../sandbox.js';

export type PeerId = 'ours' | 'playwright-mcp' | 'chrome-devtools-mcp';

export const PEER_LABELS: Record<PeerId, string> = {
  ours: 'Browser Agent',
  'playwright-mcp': 'Playwright MCP',
  'chrome-devtools-mcp': 'Chrome DevTools MCP',
};

export interface Peer {
  readonly id: PeerId;
  readonly client: BenchClient;
  navigate(url: string): Promise<CallOutcome>;
  /** The default snapshot, as an agent gets it without asking for more. */
  snapshot(): Promise<CallOutcome>;
  /** Whether a navigate answer says the navigation failed (not every server sets isError). */
  navigationFailed(outcome: CallOutcome): boolean;
}

const require = createRequire(import.meta.url);

function packageBin(pkg: string, bin: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), bin);
}

/** Our server, on a client the caller may already have (the bench's own session). */
export function oursPeer(client: BenchClient): Peer {
  return {
    id: 'ours',
    client,
    navigate: (url) => client.callUntyped('browser_navigate', { url }),
    snapshot: () => client.callUntyped('browser_snapshot', {}),
    navigationFailed: (o) => o.isError,
  };
}

export async function startPeer(id: PeerId, sandbox: Sandbox): Promise<Peer> {
  if (id === 'ours') return oursPeer(await sandbox.spawnClient('real-pages-ours'));
  if (id === 'playwright-mcp') {
    const client = await sandbox.spawnClient('real-pages-playwright-mcp', {
      script: packageBin('@playwright/mcp', 'cli.js'),
      flags: [
        '--headless',
        '--isolated',
        '--no-sandbox',
        '--executable-path',
        CHROME_PATH,
        '--image-responses',
        'omit',
        '--output-dir',
        path.join(sandbox.root, 'playwright-mcp-output'),
      ],
    });
    return {
      id,
      client,
      navigate: (url) => client.callUntyped('browser_navigate', { url }),
      snapshot: () => client.callUntyped('browser_snapshot', {}),
      navigationFailed: (o) => o.isError || /^### Error/m.test(o.text),
    };
  }
  const client = await sandbox.spawnClient('real-pages-chrome-devtools-mcp', {
    script: packageBin('chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js'),
    flags: [
      '--headless',
      '--isolated',
      '--executablePath',
      CHROME_PATH,
      '--chromeArg=--no-sandbox',
      '--no-usage-statistics',
      '--no-performance-crux',
      '--no-page-id-routing',
    ],
    env: {
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
    },
  });
  return {
    id,
    client,
    navigate: (url) => client.callUntyped('navigate_page', { type: 'url', url }),
    snapshot: () => client.callUntyped('take_snapshot', {}),
    // A navigation timeout comes back as text, not as a tool error.
    navigationFailed: (o) => o.isError || /Unable to navigate/i.test(o.text),
  };
}
