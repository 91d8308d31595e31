import { EXTENSION_ID, RELAY_PAGE_PATH } from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import { waitForTarget, type CdpPipe } from './cdpPipe.js';
import { handOffOverPipe } from './pipeHandoff.js';
import { HeldRelayPage } from './heldRelayPage.js';
import { dropStaleWorkers } from './workerCache.js';
import { pairingFragment, type Pairing } from '../link/pairingStore.js';
import { browserPolicyMayExist } from './policyFiles.js';
import { ensurePrivateDir } from '../../shared/privateDir.js';
import {
  launchCommand,
  spawnChromium,
  stopBrowser,
  type LaunchOptions,
  type SpawnedBrowser,
} from './browserSpawn.js';
import type { Prelaunch } from './prelaunch.js';

export type { LaunchOptions } from './browserSpawn.js';

/** A browser asked to close writes its cookies and storage to the profile first. */
const CLOSE_GRACE_MS = 5_000;
const EXTENSION_READY_TIMEOUT_MS = 20_000;
/** The worker's script runs 100-300 ms after its target appears; then the relay page's way. */
const PIPE_HANDOFF_TIMEOUT_MS = 5_000;

/** What tells two launches' extra options apart (order-sensitive, as Chromium reads flags). */
export function launchExtrasKey(options: Pick<LaunchOptions, 'args' | 'grantPermissions'>): string {
  return JSON.stringify([options.args ?? [], options.grantPermissions ?? []]);
}

export interface RelayPageFacts {
  /** No browser policy files on this machine (policyFiles.ts), asked once by the caller. */
  noPolicy: boolean;
  /** Handed to the page to pair it; absent once the worker took the link over the pipe. */
  pairing?: Pairing;
  /** The startup tab's target id, for the page to name to the worker (`?spare=`). */
  spareTarget?: string | undefined;
}

/**
 * The relay page a launched browser opens. `launch=1` tells the page the browser is ours, so the
 * service worker holds the link itself; `policy=none`: no admin lists to wait for. A pairing
 * rides in the URL fragment, which never leaves the browser; the page stores it and removes it
 * from the address. Once the worker took the link over the pipe (pipeHandoff.ts), the page only
 * shows the sessions and the log, and carries no pairing and no spare tab.
 */
export function relayPageUrl(bridgePort: number, facts: RelayPageFacts): string {
  const policy = facts.noPolicy ? '&policy=none' : '';
  const { spareTarget, pairing } = facts;
  const spare = spareTarget === undefined ? '' : `&spare=${encodeURIComponent(spareTarget)}`;
  const fragment = pairing === undefined ? '' : pairingFragment(pairing);
  return `chrome-extension://${EXTENSION_ID}/${RELAY_PAGE_PATH}?port=${bridgePort}&launch=1${policy}${spare}${fragment}`;
}

/** Opens the relay page in a tab of its own; `note` ends the log line. */
async function openRelayPage(cdp: CdpPipe, url: string, log: Logger, note = ''): Promise<void> {
  await cdp.send('Target.createTarget', { url });
  log.info(`relay page opened${note}`);
}

/**
 * The target id of the blank tab Chromium opened at start (`about:blank` on its command line),
 * if it is still there. The relay page hands it to the worker (`?spare=`): the first session's
 * first tab is that one, whose renderer runs already, instead of a new one (extension
 * worker/spareTab.ts).
 */
export async function startupBlankTab(cdp: CdpPipe): Promise<string | undefined> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos?: { targetId: string; type: string; url: string }[];
  };
  return targetInfos?.find((t) => t.type === 'page' && t.url === 'about:blank')?.targetId;
}

/** A Chromium the daemon started, with the extension loaded (and, headed, the relay page open). */
export class LaunchedBrowser {
  /** What it was started with, to tell whether a new server's launch options fit it. */
  readonly executable: string;
  readonly profile: string;
  readonly owner: string | undefined;
  /** The extra flags and permissions, joined: a server asking for others gets its own browser. */
  readonly extras: string;
  readonly #spawned: SpawnedBrowser;
  readonly exited: Promise<void>;

  private constructor(
    spawned: SpawnedBrowser,
    started: { executable: string; profile: string; options: LaunchOptions },
  ) {
    this.executable = started.executable;
    this.profile = started.profile;
    this.owner = started.options.owner;
    this.extras = launchExtrasKey(started.options);
    this.#spawned = spawned;
    this.exited = spawned.exited;
  }

  static launch(
    options: LaunchOptions,
    pairing: Pairing,
    bridgePort: number,
    stateDir: string,
    log: Logger,
    prelaunch?: Prelaunch,
  ): LaunchedBrowser {
    // --isolated without a profile of its own is a context in the shared isolated browser
    // (launchSlot.ts), never a browser of this kind.
    const command = launchCommand(options);
    const { executable, profile } = command;
    let spawned = prelaunch?.take(command);
    if (spawned === undefined) {
      // A kept profile may hold the worker of another build of the extension (workerCache.ts).
      if (dropStaleWorkers(profile, command.extensionDir)) {
        log.info('the profile held an extension worker of another build: removed before launch');
      }
      log.info(
        `launching ${executable} (${options.headless ? 'headless' : 'headed'}, profile ${profile})`,
      );
      spawned = spawnChromium(executable, command.args, stateDir, log);
    }
    const { cdp } = spawned;
    const browser = new LaunchedBrowser(spawned, { executable, profile, options });
    const extensionOrigin = `chrome-extension://${EXTENSION_ID}/`;
    browser.ready = waitForTarget(cdp, extensionOrigin, EXTENSION_READY_TIMEOUT_MS).then(
      async (target) => {
        if (options.grantPermissions?.length) {
          // Browser-level, so only here: chrome.debugger reaches page targets, not the browser.
          await cdp.send('Browser.grantPermissions', { permissions: options.grantPermissions });
          log.info(`granted ${options.grantPermissions.join(', ')}`);
        }
        const spare = await startupBlankTab(cdp).catch(() => undefined);
        const noPolicy = !browserPolicyMayExist();
        const policyNote = noPolicy
          ? " (no browser policy files: calls do not wait for Chrome's admin lists)"
          : '';
        // The worker takes its link over the pipe as soon as it has run; the relay page, which
        // only shows the sessions now, opens after that (pipeHandoff.ts says why).
        const handed =
          target.type === 'service_worker' &&
          (await handOffOverPipe(
            cdp,
            target.targetId,
            {
              kind: 'launch_handoff',
              pairing: { secret: pairing.secret, label: pairing.label },
              bridgePort,
              noBrowserPolicy: noPolicy,
              spareTarget: spare ?? null,
            },
            PIPE_HANDOFF_TIMEOUT_MS,
          ));
        if (handed && options.headless) {
          // Nobody can see a headless browser's tabs, and the page re-rendered its log on every
          // call: its main thread and layouts took the cores the agent's calls wait on (#26, an
          // evaluate 8.1-8.3 ms with it against 5.7-6.4 ms without, in one suite run).
          log.info(`the worker took the link over the pipe${policyNote}; headless: no relay page`);
        } else if (handed) {
          log.info(`the worker took the link over the pipe${policyNote}`);
          const url = relayPageUrl(bridgePort, { noPolicy });
          browser.#heldRelayPage = new HeldRelayPage(() => {
            openRelayPage(cdp, url, log).catch((err: unknown) =>
              log.warn(`the relay page did not open: ${String(err)}`),
            );
          });
        } else {
          const url = relayPageUrl(bridgePort, { noPolicy, pairing, spareTarget: spare });
          await openRelayPage(cdp, url, log, policyNote);
        }
        // Downloads go to the server's output directory; a tab's debugger cannot set this.
        if (options.downloadDir !== undefined) {
          // Chrome writes downloads with its own modes: only a directory no one else can
          // reach keeps them private. Refused, downloads are denied rather than sent elsewhere.
          const problem = ensurePrivateDir(options.downloadDir);
          if (problem !== undefined) log.error(`downloads denied: ${problem}`);
          await cdp
            .send(
              'Browser.setDownloadBehavior',
              problem === undefined
                ? { behavior: 'allow', downloadPath: options.downloadDir }
                : { behavior: 'deny' },
            )
            .catch((err: unknown) =>
              log.warn(`downloads stay in the default folder: ${String(err)}`),
            );
        }
      },
    );
    return browser;
  }

  /**
   * Settles when the extension holds the link (or its relay page is open to hand it over), or
   * fails with why the extension did not come up.
   */
  ready: Promise<void> = Promise.resolve();

  /** The relay page held back for the first call, after a hand-off over the pipe. */
  #heldRelayPage: HeldRelayPage | undefined;

  /** A call's answer came back from the extension: a relay page held back opens shortly. */
  callAnswered(): void {
    this.#heldRelayPage?.callAnswered();
  }

  /**
   * Stops the browser. Browser.close first, so cookies and localStorage reach the profile on
   * disk; then the whole process group, in case it hangs.
   */
  async close(): Promise<void> {
    this.#heldRelayPage?.cancel();
    await stopBrowser(this.#spawned, CLOSE_GRACE_MS);
  }
}
