/**
 * How a launch-mode server tells the daemon it spawns which browser it hands over with it
 * (daemon/launch/browserHandover.ts, prelaunch.ts): the variable and its JSON, said once for
 * both sides.
 */

export const PRELAUNCH_ENV = 'BROWSER_AGENT_PRELAUNCH';

/** The launch options the spawn needs (the hello frame's `launch`, less what only a session uses). */
export interface PrelaunchOptions {
  headless: boolean;
  isolated: boolean;
  executablePath?: string | undefined;
  userDataDir?: string | undefined;
  args?: string[] | undefined;
}

/**
 * The launch a server's daemon starts with, when it starts a browser of its own: none for an
 * isolated context (it lives in the shared isolated browser), and none for a headed browser,
 * whose window would open when the MCP client starts its servers, and close a minute later,
 * unasked, if no call came.
 */
export function prelaunchOptions(
  launch: PrelaunchOptions | undefined,
): PrelaunchOptions | undefined {
  if (launch === undefined || !launch.headless) return undefined;
  if (launch.isolated && launch.userDataDir === undefined) return undefined;
  const { headless, executablePath, userDataDir, isolated, args } = launch;
  return { headless, executablePath, userDataDir, isolated, args };
}

/** The daemon's environment entry: the launch, and the pid of the browser handed to it. */
export function prelaunchEnv(options: PrelaunchOptions, pid: number): Record<string, string> {
  return { [PRELAUNCH_ENV]: JSON.stringify({ ...options, pid }) };
}
