import { Duplex } from 'node:stream';
import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';
import { Daemon } from '../../daemon/daemon.js';
import type { Logger } from '../../shared/logger.js';
import { tmpdir } from 'node:os';

/**
 * The fallback when no shared daemon can run (no Unix sockets, no writable state directory):
 * the same Daemon, inside this server, serving only this server's connection.
 */
export async function startInProcessDaemon(
  log: Logger,
  stateDir: string | undefined,
  /** 0 for a project's own bridge (an ephemeral port); else the user's port. */
  port: number = Number(process.env['BROWSER_AGENT_PORT'] ?? DEFAULT_BRIDGE_PORT),
): Promise<Daemon> {
  const daemon = new Daemon(
    {
      socketPath: undefined,
      // Pairings live in the state directory when it is usable; else pairing happens anew.
      stateDir: stateDir ?? tmpdir(),
      port,
      // It lives and dies with this server, so it never exits on its own.
      idleExitMs: 2 ** 31 - 1,
      extensionWaitMs: 5_000,
      launchWaitMs: 30_000,
      sessionGraceMs: 0,
    },
    log.child('bridge'),
  );
  await daemon.start();
  return daemon;
}

/** Two connected in-memory streams (node:stream has duplexPair only from Node 22). */
export function duplexPair(): [Duplex, Duplex] {
  const ends: { a?: Duplex; b?: Duplex } = {};
  const make = (peer: () => Duplex | undefined): Duplex =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        peer()?.push(chunk);
        done();
      },
      final(done) {
        peer()?.push(null);
        done();
      },
    });
  const a = make(() => ends.b);
  const b = make(() => ends.a);
  ends.a = a;
  ends.b = b;
  return [a, b];
}
