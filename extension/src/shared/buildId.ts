/**
 * This build's identity (scripts/buildIdentity.mjs), baked in by the bundler's `define`. Unbundled
 * code (unit tests) has none and says 'dev'.
 */
declare const __BROWSER_AGENT_BUILD__: string | undefined;

export const BUILD_ID: string =
  typeof __BROWSER_AGENT_BUILD__ === 'string' ? __BROWSER_AGENT_BUILD__ : 'dev';
