/**
 * The daemon's half of "one build, one daemon" (#26.5): its welcome tells a server which build it
 * is and how many other servers are connected, so a server of another build can decide to replace
 * it (nobody is using it) or to go elsewhere (server/session/otherBuild.ts).
 */
import { buildId } from '../shared/buildId.js';

/** A server's hello named a build, and it is not this daemon's. */
export function isOtherBuild(build: string | undefined): boolean {
  return build !== undefined && build !== buildId();
}

export function welcomeFacts(sessions: Iterable<{ conn?: unknown }>): {
  build: string;
  liveSessions: number;
} {
  let liveSessions = 0;
  for (const s of sessions) if (s.conn !== undefined) liveSessions += 1;
  return { build: buildId(), liveSessions };
}
