/**
 * The one browser a daemon launches (launch mode), with the pairing minted for it and why the
 * last launch failed. It also answers whether a server's launch options fit the browser already
 * running, so a server that asks for another one gets a daemon of its own.
 */
import { ErrorCode, type WireError } from '@browser-agent/protocol';
import { resolve as resolvePath } from 'node:path';
import type { Logger } from '../../shared/logger.js';
import type { ExtensionLink } from '../link/extensionLink.js';
import { ephemeralPairing, type Pairing, type PairingStore } from '../link/pairingStore.js';
import { IsolatedContext } from '../isolated/isolatedContext.js';
import { LaunchedBrowser, launchExtrasKey, type LaunchOptions } from './chromeLauncher.js';
import type { Prelaunch } from './prelaunch.js';

/**
 * How long an ended isolated session's worker has for its clean-up before the context goes: it
 * rebuilds its popup rules in ~10–30 ms once it hears of the session's end, which was sent just
 * before. Off every call's path: nothing waits for it.
 */
const ISOLATED_CLEANUP_MS = 500;

/** A browser of this daemon's own, or (--isolated) a context in the shared isolated browser. */
type RunningBrowser = Pick<
  LaunchedBrowser,
  'executable' | 'profile' | 'owner' | 'extras' | 'ready' | 'exited' | 'close'
> &
  Partial<Pick<LaunchedBrowser, 'callAnswered'>>;

export class LaunchSlot {
  readonly #stateDir: string;
  readonly #log: Logger;
  #browser: RunningBrowser | undefined;
  /** The pairing minted for the launched browser, the only one then accepted. */
  #pairing: Pairing | undefined;
  #error: string | undefined;
  /** The browser this daemon started in its first lines, until a launch takes it (prelaunch.ts). */
  #prelaunch: Prelaunch | undefined;

  constructor(stateDir: string, log: Logger, prelaunch?: Prelaunch) {
    this.#stateDir = stateDir;
    this.#log = log;
    this.#prelaunch = prelaunch;
  }

  get browser(): RunningBrowser | undefined {
    return this.#browser;
  }

  get pairing(): Pairing | undefined {
    return this.#pairing;
  }

  get error(): string | undefined {
    return this.#error;
  }

  /**
   * A server's launch options that the browser this daemon already runs cannot honour: another
   * profile, another binary, or --isolated from a server that did not start it (a fresh profile
   * was asked for, and this one has been used). Such a server gets a browser of its own
   * (session/projectSession.ts); sharing silently was the bug.
   */
  refusal(
    options: LaunchOptions,
    link: ExtensionLink | undefined,
    pairings: PairingStore,
  ): WireError | undefined {
    const running = this.#browser;
    if (running === undefined) return servesUsersBrowser(link, pairings);
    const mismatches: string[] = [];
    if (options.userDataDir === undefined && options.isolated) {
      if (running.owner === undefined || running.owner !== options.owner)
        mismatches.push('--isolated asks for a fresh profile, and this browser is in use');
    } else if (
      options.userDataDir !== undefined &&
      resolvePath(options.userDataDir) !== resolvePath(running.profile)
    ) {
      mismatches.push(`it runs on the profile ${running.profile}, not ${options.userDataDir}`);
    }
    if (
      options.executablePath !== undefined &&
      resolvePath(options.executablePath) !== resolvePath(running.executable)
    ) {
      mismatches.push(`it runs ${running.executable}, not ${options.executablePath}`);
    }
    if (launchExtrasKey(options) !== running.extras) {
      mismatches.push('it was started with other proxy, launch args or granted permissions');
    }
    if (mismatches.length === 0) return undefined;
    return {
      code: ErrorCode.BROWSER_IN_USE,
      message: `This daemon's browser does not fit the launch options: ${mismatches.join('; ')}.`,
      hint: 'The server starts a browser of its own for them.',
    };
  }

  /**
   * Launch mode. Whatever else holds the link (the user's Chrome, or a peer that got a pairing
   * somehow), the daemon starts its own browser and from then on accepts only the pairing minted
   * for it, which reaches that browser over the private debugging pipe alone. `failed` runs when
   * the browser could not even be started.
   */
  ensure(
    options: LaunchOptions,
    link: ExtensionLink | undefined,
    bridgePort: number,
    failed: () => void,
  ): void {
    if (this.#browser) return;
    const pairing = ephemeralPairing('Launched browser');
    this.#pairing = pairing;
    link?.dropUnless(
      (id) => id === pairing.id,
      4409,
      'This bridge launched its own browser and serves only that one',
    );
    const prelaunch = this.#prelaunch;
    this.#prelaunch = undefined;
    try {
      // --isolated without a profile of its own: a context in the browser isolated sessions
      // share (docs/isolated.md), not a browser per server.
      const inContext = options.isolated && options.userDataDir === undefined;
      if (inContext) void prelaunch?.close('an isolated session needs no browser of its own');
      const browser: RunningBrowser = inContext
        ? IsolatedContext.open(options, pairing, bridgePort, this.#log.child('isolated'))
        : LaunchedBrowser.launch(
            options,
            pairing,
            bridgePort,
            this.#stateDir,
            this.#log.child('chrome'),
            prelaunch,
          );
      this.#browser = browser;
      browser.ready.catch((err: unknown) => {
        this.#error = `The launched browser did not come up: ${err instanceof Error ? err.message : String(err)}`;
        this.#log.error(this.#error);
        void browser.close();
      });
      void browser.exited.then(() => {
        if (this.#browser === browser) this.#browser = undefined;
        this.#log.info('launched browser exited');
      });
      this.#error = undefined;
    } catch (err) {
      void prelaunch?.close('the launch failed');
      this.#error = `Could not launch the browser: ${err instanceof Error ? err.message : String(err)}`;
      this.#log.error(this.#error);
      failed();
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.#prelaunch?.close('the daemon stops'), this.#browser?.close()]);
  }

  /**
   * The last session and launch-mode server are gone: an isolated context goes now (its tabs,
   * cookies and storage with it), rather than when this daemon idles out, so the shared isolated
   * browser can close when nobody uses it. A browser of the daemon's own stays for the idle
   * minute, as before. The slot is free at once (a server that comes now gets a new context) and
   * the context's link goes at once (no other server's call may reach it); the context itself
   * goes a moment later, once its worker has taken down what the ended session left in the
   * browser beyond the context: its popup rules, which are the whole browser's
   * (popupGuard/ruleBlock.ts).
   */
  releaseIsolated(link: ExtensionLink | undefined): void {
    if (!(this.#browser instanceof IsolatedContext)) return;
    this.#log.info('no isolated session left: closing its browser context');
    const pairing = this.#pairing?.id;
    const context = this.#vacate();
    link?.dropUnless((id) => id !== pairing, 4409, 'The isolated session ended');
    setTimeout(() => void context?.close(), ISOLATED_CLEANUP_MS);
  }

  /**
   * A server for the user's own Chrome, at a daemon that runs a browser it launched (#27.4: it
   * drove the headless browser). While a launch-mode server is connected it is refused; once
   * none is (the daemon's idle minute), the launched browser goes, so the user's Chrome can link.
   */
  ownChromeHello(
    launchServers: number,
    link: ExtensionLink | undefined,
    changed: () => void,
  ): WireError | undefined {
    if (this.#browser === undefined && this.#pairing === undefined) return undefined;
    if (launchServers > 0) return launchedBrowserInUse();
    this.#log.info("a server for the user's own Chrome came: closing the launched browser");
    // Its link goes first, so no call of the new server reaches the browser while it closes.
    const launched = this.#pairing?.id;
    link?.dropUnless((id) => id !== launched, 4409, 'The launched browser is closing');
    void this.release().then(changed);
    return undefined;
  }

  /**
   * No launch-mode server is left and one for the user's own Chrome came: the launched browser
   * goes, and so does the rule that only its pairing is served.
   */
  async release(): Promise<void> {
    await this.#vacate()?.close();
  }

  /** Empties the slot (browser, its pairing, its error) and returns the browser it held. */
  #vacate(): RunningBrowser | undefined {
    const browser = this.#browser;
    this.#browser = undefined;
    this.#pairing = undefined;
    this.#error = undefined;
    return browser;
  }
}

/** An own-Chrome server at a daemon whose launched browser a launch-mode server still uses. */
export function launchedBrowserInUse(): WireError {
  return {
    code: ErrorCode.BROWSER_IN_USE,
    message:
      "This bridge's daemon runs a browser it launched for another MCP server (--launch), not your own Chrome; it does not drive one browser for the other.",
    hint: 'Stop the --launch server (its daemon closes that browser within a minute), or give one of the two servers its own BROWSER_AGENT_HOME, then restart this MCP client.',
  };
}

/**
 * A browser the user paired (a pairing in pairings.json) holds the link: launching here would
 * close its link (4409) and lock it out until this daemon exits, taking the user's own Chrome
 * away from every other agent. The launch server gets a daemon of its own instead, as for a
 * browser that does not fit (BROWSER_IN_USE), and both links stay up. A peer holding a pairing
 * no one stored (none can, but launch pairings are in memory only) is still dropped.
 */
function servesUsersBrowser(
  link: ExtensionLink | undefined,
  pairings: PairingStore,
): WireError | undefined {
  const held = link?.connected === true ? link.activePairing : undefined;
  if (held === undefined || pairings.find([held]) === undefined) return undefined;
  return {
    code: ErrorCode.BROWSER_IN_USE,
    message: 'This daemon serves a browser the user paired (their own Chrome), not a launched one.',
    hint: 'The server starts a browser of its own, with a daemon of its own.',
  };
}
