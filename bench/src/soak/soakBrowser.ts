/**
 * The soak's own Chromium: the built extension loaded and its relay page opened (and paired)
 * once the extension is up, as launch mode does, but with a CDP pipe the bench holds, so it can
 * count the browser's tabs and the debugger attachments on them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { EXTENSION_ORIGIN, RELAY_PAGE_PATH } from '@browser-agent/protocol';
import { CHROME_PATH, CHROMIUM_FLAGS, EXTENSION_DIR } from '../paths.js';
import { isRunning, signalGroup, waitUntil } from '@browser-agent/testkit/procfs';
import type { Sandbox } from '../sandbox.js';
import { CdpPipe, waitForTarget } from '@browser-agent/mcp-server/cdpPipe';
import { extensionFlags } from '@browser-agent/mcp-server/chromiumFlags';
import { provisionPairing } from '@browser-agent/mcp-server/pairingStore';

const EXTENSION_TIMEOUT_MS = 20_000;
const KILL_GRACE_MS = 3_000;

export interface PageTarget {
  url: string;
  /** Some client other than the bench is attached: the extension's chrome.debugger. */
  attached: boolean;
}

export class SoakBrowser {
  readonly pid: number;
  readonly #child: ChildProcess;
  readonly #cdp: CdpPipe;

  private constructor(child: ChildProcess, pid: number, cdp: CdpPipe) {
    this.#child = child;
    this.pid = pid;
    this.#cdp = cdp;
  }

  static async launch(sandbox: Sandbox): Promise<SoakBrowser> {
    const log = openSync(path.join(sandbox.root, 'chromium.log'), 'a');
    const child = spawn(
      CHROME_PATH,
      [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${path.join(sandbox.root, 'profile')}`,
        ...extensionFlags(EXTENSION_DIR),
        '--headless=new',
        '--remote-debugging-pipe',
        'about:blank',
      ],
      // Its own process group, so stopping it takes every helper process along.
      { stdio: ['ignore', log, log, 'pipe', 'pipe'], detached: true, env: { ...sandbox.env } },
    );
    closeSync(log);
    const [, , , toBrowser, fromBrowser] = child.stdio;
    if (
      child.pid === undefined ||
      !(toBrowser instanceof Writable) ||
      !(fromBrowser instanceof Readable)
    )
      throw new Error('Could not start Chromium with a debugging pipe.');
    const browser = new SoakBrowser(child, child.pid, new CdpPipe(toBrowser, fromBrowser));
    sandbox.onTeardown(() => browser.close());
    await browser.#openRelay(
      `?port=${sandbox.port}${provisionPairing(sandbox.home, 'bench soak')}`,
    );
    return browser;
  }

  /**
   * Every tab (page target) of the browser. The bench's pipe never attaches to a page, so a
   * target's `attached` flag reports other clients only: the extension's chrome.debugger.
   */
  async pages(): Promise<PageTarget[]> {
    const result = (await this.#cdp.send('Target.getTargets')) as {
      targetInfos?: Array<{ type?: unknown; url?: unknown; attached?: unknown }>;
    };
    return (result.targetInfos ?? [])
      .filter((t) => t.type === 'page')
      .map((t) => ({ url: String(t.url), attached: t.attached === true }));
  }

  async close(): Promise<void> {
    if (!isRunning(this.pid)) return;
    signalGroup(this.pid, 'SIGTERM');
    if (!(await waitUntil(() => !isRunning(this.pid), KILL_GRACE_MS)))
      signalGroup(this.pid, 'SIGKILL');
    await waitUntil(() => !isRunning(this.pid), KILL_GRACE_MS);
    this.#child.unref();
  }

  // The relay page can only load once the extension is registered (its service worker is up).
  async #openRelay(query: string): Promise<void> {
    await waitForTarget(this.#cdp, `${EXTENSION_ORIGIN}/`, EXTENSION_TIMEOUT_MS);
    await this.#cdp.send('Target.createTarget', {
      url: `${EXTENSION_ORIGIN}/${RELAY_PAGE_PATH}${query}`,
    });
  }
}
