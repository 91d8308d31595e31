/**
 * The isolated host's side of its socket: one connection is one isolated session's daemon and
 * one browser context. The context goes the moment its connection does (the daemon exited, or
 * released its session), and the host itself once no connection is left for `lingerMs` — long
 * enough for a client that starts a server per call to find the browser warm, short enough that
 * an idle browser does not stay.
 */
import type { Socket } from 'node:net';
import type { Logger } from '../../shared/logger.js';
import { LineSplitter } from '../../shared/ndjson.js';
import type { HostBrowser } from './hostBrowser.js';
import { openFrame, type HostAnswer } from './hostFrames.js';

/** A frame bigger than this is no open request: the connection is ended. */
const MAX_FRAME_CHARS = 64 * 1024;

/** What the host needs of its browser (a fake in the unit tests). */
export type ContextBrowser = Pick<HostBrowser, 'openContext' | 'disposeContext' | 'profile'>;

export class ContextHost {
  readonly #browser: ContextBrowser;
  readonly #lingerMs: number;
  readonly #log: Logger;
  readonly #idle: () => void;
  readonly #connections = new Set<Socket>();
  #lingerTimer: NodeJS.Timeout | undefined;

  constructor(browser: ContextBrowser, lingerMs: number, log: Logger, idle: () => void) {
    this.#browser = browser;
    this.#lingerMs = lingerMs;
    this.#log = log;
    this.#idle = idle;
    this.#armLinger();
  }

  get contexts(): number {
    return this.#connections.size;
  }

  accept(socket: Socket): void {
    this.#connections.add(socket);
    clearTimeout(this.#lingerTimer);
    let context: Promise<string | undefined> | undefined;
    const answer = (frame: HostAnswer): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
    };
    const refuse = (message: string): void => {
      answer({ type: 'failed', message });
      socket.end();
    };
    const lines = new LineSplitter(
      (line) => {
        if (context !== undefined) return refuse('One context per connection.');
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          return refuse('A frame that is not JSON.');
        }
        const open = openFrame.safeParse(parsed);
        if (!open.success) return refuse(`A bad open frame: ${open.error.issues[0]?.message}`);
        context = this.#browser.openContext(open.data).then(
          (contextId) => {
            this.#log.info(`context ${contextId} opened (${this.#connections.size} in use)`);
            answer({ type: 'opened', contextId, profile: this.#browser.profile });
            return contextId;
          },
          (err: unknown) => {
            refuse(`The browser could not open a context: ${String(err)}`);
            return undefined;
          },
        );
      },
      () => refuse('A frame too big.'),
      MAX_FRAME_CHARS,
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => lines.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.#connections.delete(socket);
      // A context still being made is disposed once it exists.
      void context?.then(async (contextId) => {
        if (contextId === undefined) return;
        await this.#browser.disposeContext(contextId);
        this.#log.info(`context ${contextId} closed (${this.#connections.size} in use)`);
      });
      this.#armLinger();
    });
  }

  #armLinger(): void {
    if (this.#connections.size > 0) return;
    clearTimeout(this.#lingerTimer);
    this.#lingerTimer = setTimeout(() => {
      if (this.#connections.size === 0) this.#idle();
    }, this.#lingerMs);
  }

  stop(): void {
    clearTimeout(this.#lingerTimer);
    for (const socket of this.#connections) socket.destroy();
  }
}
