/**
 * How a launch-mode server tells the daemon it spawns which browser to start ahead
 * (daemon/launch/prelaunch.ts reads it): the variable and its JSON, said once for both sides.
 */

export const PRELAUNCH_ENV = 'BROWSER_AGENT_PRELAUNCH';

/** The launch options the spawn needs (the hello frame's `launch`, less what only a session uses). */
interface PrelaunchOptions {
  headless: boolean;
  isolated: boolean;
  executablePath?: string | undefined;
  userDataDir?: string | undefined;
  args?: string[] | undefined;
}

/**
 * The environment that names the launch a server's daemon starts ahead: none when it would not
 * start a browser of its own (an isolated context lives in the shared isolated browser), and
 * none for a headed browser, whose window would open when the MCP client starts its servers,
 * and close a minute later, unasked, if no call came.
 */
export function prelaunchEnv(launch: PrelaunchOptions | undefined): Record<string, string> {
  if (launch === undefined || !launch.headless) return {};
  if (launch.isolated && launch.userDataDir === undefined) return {};
  const { headless, executablePath, userDataDir, isolated, args } = launch;
  return {
    [PRELAUNCH_ENV]: JSON.stringify({ headless, executablePath, userDataDir, isolated, args }),
  };
}
