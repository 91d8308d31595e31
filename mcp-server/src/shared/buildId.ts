/**
 * This build's identity (scripts/buildIdentity.mjs), baked in by the bundler's `define`: what the
 * server and the daemon compare in their handshake, and the daemon with the extension's. Unbundled
 * code (unit tests) has none and says 'dev'. BROWSER_AGENT_BUILD_OVERRIDE stands in for another
 * build in tests of build skew (as BROWSER_AGENT_RELEASE_OVERRIDE does for releases).
 */
declare const __BROWSER_AGENT_BUILD__: string | undefined;

const BAKED: string = typeof __BROWSER_AGENT_BUILD__ === 'string' ? __BROWSER_AGENT_BUILD__ : 'dev';

export function buildId(): string {
  return process.env['BROWSER_AGENT_BUILD_OVERRIDE'] || BAKED;
}
