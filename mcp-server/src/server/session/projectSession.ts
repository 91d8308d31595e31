/**
 * The session's project and, from it, which daemon and which browser profile this server uses.
 *
 * The project comes from, in order: the client's MCP roots (at initialize), `--project`, or the
 * `projectPath` argument of the first tool call. In launch mode with no project known at
 * initialize, nothing is started until that first call, so its projectPath can still pick the
 * project's browser. Once the first call has run the choice is fixed; later projectPaths are
 * ignored (and the result says so).
 *
 * Routing: launch mode on a project profile talks to that project's own daemon (its own browser,
 * an ephemeral bridge port); everything else uses the single per-user daemon, unless that
 * daemon's browser does not fit this server's launch options (useOwnBrowser).
 */
import { createHash, randomUUID } from 'node:crypto';
import { BridgeError, ErrorCode, type HelloFrame } from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import type { StatePaths } from '../../shared/paths.js';
import { checkProjectDir } from '../../shared/projectDir.js';
import { projectDaemonPaths } from '../../shared/projectDaemonPaths.js';
import { chooseProfile, type ProfileChoice } from '../../shared/profiles.js';
import { profileRecordsDir, recordProfileUse } from '../../shared/profileRecords.js';
import { gitignoreHintText, gitignoreLineNeeded } from './gitignoreHint.js';

/** How long an isolated session's own daemon stays after its last session (a keyed one's grace included before). */
const ISOLATED_DAEMON_IDLE_MS = 5_000;

export interface DaemonRoute {
  paths: StatePaths;
  launch: HelloFrame['launch'];
  /** Extra arguments for a daemon this server has to spawn. */
  daemonArgs: string[];
  /** The bridge port to ask for, when not the user's (BROWSER_AGENT_PORT or 3026). */
  port?: number;
  project: string | undefined;
}

export interface ProjectSessionOptions {
  launch: HelloFrame['launch'];
  /** `--project`, already checked by the CLI. */
  cliProject?: string | undefined;
  userPaths: StatePaths;
  log: Logger;
  env?: NodeJS.ProcessEnv;
  /** BROWSER_AGENT_SESSION_KEY: a server restarted with it finds its isolated browser again. */
  sessionKey?: string | undefined;
}

export class ProjectSession {
  readonly #options: ProjectSessionOptions;
  /**
   * Tells the daemon that a browser it launched for this server is this server's own. With a
   * session key, every server of that key is the same owner: under --isolated the restarted
   * server reaches the daemon and the browser context its session is waiting in (#27.2).
   */
  readonly #owner: string;
  /** Set once the shared daemon's browser did not fit: the key of this server's own daemon. */
  #ownBrowser: string | undefined;
  #project: string | undefined;
  #fixed = false;
  #hintGiven = false;
  /** Notes of a call that failed, so the next result carries them. */
  #unsent: string[] = [];
  #initialized: () => void = () => undefined;
  readonly #whenInitialized = new Promise<void>((resolve) => {
    this.#initialized = resolve;
  });

  constructor(options: ProjectSessionOptions) {
    this.#options = options;
    this.#owner =
      options.sessionKey === undefined
        ? randomUUID()
        : `key:${createHash('sha256').update(options.sessionKey).digest('hex').slice(0, 32)}`;
  }

  get project(): string | undefined {
    return this.#project;
  }

  /**
   * MCP initialize is done; `root` is the client's first file root, if it offers roots.
   * Returns true when the browser may be started now.
   */
  initialize(root: string | undefined): boolean {
    const { cliProject, log, launch } = this.#options;
    if (root !== undefined) {
      const check = checkProjectDir(root);
      if (check.ok) {
        this.#fix(check.dir);
      } else {
        log.warn(`ignoring the client's root as project: ${check.message}`);
      }
    }
    if (!this.#fixed && cliProject !== undefined) {
      const check = checkProjectDir(cliProject);
      if (check.ok) for (const w of check.warnings) log.warn(w);
      this.#fix(cliProject);
    }
    // Without launch mode the project is only a label: nothing waits for it.
    if (launch === undefined) this.#fixed = true;
    this.#initialized();
    return this.#fixed;
  }

  /**
   * Whether the daemon this server will use is known before its first call: the project is
   * fixed, or the profile does not follow it (--user-data-dir, --isolated), or there is no
   * launch mode. Else the first call's projectPath may still pick a project's own daemon.
   */
  routeKnown(): boolean {
    const { launch } = this.#options;
    if (this.#fixed || launch === undefined) return true;
    return this.#profile().source !== 'default';
  }

  /**
   * Runs before every tool call with its projectPath argument. Returns notes for the result.
   * Throws INVALID_ARGS for a bad path that would have taken effect; nothing is created then.
   */
  async beforeCall(projectPath: string | undefined): Promise<string[]> {
    await this.#whenInitialized;
    const notes: string[] = this.#unsent;
    this.#unsent = [];
    if (!this.#fixed) {
      if (projectPath !== undefined) {
        const check = checkProjectDir(projectPath);
        if (!check.ok) {
          throw new BridgeError(
            ErrorCode.INVALID_ARGS,
            `projectPath: ${check.message}`,
            check.hint,
          );
        }
        for (const w of check.warnings) this.#options.log.warn(w);
        notes.push(...check.warnings);
        this.#fix(check.dir);
      } else {
        this.#fixed = true;
      }
    } else if (projectPath !== undefined && projectPath !== this.#project) {
      notes.push(
        `Note: projectPath was ignored; this session's project is ${this.#project ?? 'none (it is fixed by the first call)'}.`,
      );
    }
    const hint = this.#gitignoreHintOnce();
    if (hint !== undefined) notes.push(hint);
    return notes;
  }

  /** The call these notes were for failed: they go with the next result instead. */
  unsent(notes: string[]): void {
    this.#unsent = [...notes, ...this.#unsent];
  }

  /**
   * The daemon's browser runs with another profile or binary than this server asks for, or is
   * not fresh for --isolated: this server gets a daemon and a browser of its own, keyed by its
   * launch options (by the server itself for --isolated). False when that is already so.
   */
  useOwnBrowser(why: string): boolean {
    const { launch, log } = this.#options;
    if (launch === undefined || this.#ownBrowser !== undefined) return false;
    const profile = this.#profile();
    this.#ownBrowser =
      profile.source === 'isolated'
        ? `isolated:${this.#owner}`
        : `browser:${launch.executablePath ?? ''}:${profile.dir ?? ''}`;
    log.warn(`${why} Starting a browser of its own for this server.`);
    return true;
  }

  /** The daemon and launch options for the project as it stands now. */
  route(): DaemonRoute {
    const { launch, userPaths, env } = this.#options;
    const project = this.#project;
    if (launch === undefined) return { paths: userPaths, launch, daemonArgs: [], project };
    const profile = this.#profile();
    const withProfile = {
      ...launch,
      ...(profile.dir !== undefined ? { userDataDir: profile.dir } : {}),
      owner: this.#owner,
    };
    if (this.#ownBrowser !== undefined) {
      if (profile.source === 'project' && project !== undefined && profile.dir !== undefined)
        recordProfileUse(profileRecordsDir(env), project, profile.dir);
      const paths = projectDaemonPaths(userPaths, this.#ownBrowser);
      return {
        paths,
        launch: withProfile,
        daemonArgs: [
          '--state-dir',
          paths.dir,
          '--socket',
          paths.socket,
          '--port',
          '0',
          // An isolated session's own daemon holds no browser once its session is over (its
          // context is gone with it): nothing is worth its idle minute.
          ...(profile.source === 'isolated'
            ? ['--idle-exit-ms', String(ISOLATED_DAEMON_IDLE_MS)]
            : []),
        ],
        port: 0,
        project,
      };
    }
    if (profile.source !== 'project' || project === undefined || profile.dir === undefined) {
      return { paths: userPaths, launch: withProfile, daemonArgs: [], project };
    }
    recordProfileUse(profileRecordsDir(env), project, profile.dir);
    const paths = projectDaemonPaths(userPaths, project);
    return {
      paths,
      launch: withProfile,
      // Port 0: each project's daemon gets its own port and hands it to its relay page by URL.
      daemonArgs: ['--state-dir', paths.dir, '--socket', paths.socket, '--port', '0'],
      port: 0,
      project,
    };
  }

  #profile(): ProfileChoice {
    const launch = this.#options.launch ?? { isolated: false };
    return chooseProfile(launch, this.#project, this.#options.env);
  }

  #fix(project: string): void {
    this.#project = project;
    this.#fixed = true;
  }

  #gitignoreHintOnce(): string | undefined {
    if (this.#hintGiven || this.#options.launch === undefined || this.#project === undefined)
      return undefined;
    if (this.#profile().source !== 'project') return undefined;
    this.#hintGiven = true;
    const line = gitignoreLineNeeded(this.#project);
    if (line === undefined) return undefined;
    const text = gitignoreHintText(this.#project, line);
    this.#options.log.warn(text);
    return text;
  }
}
