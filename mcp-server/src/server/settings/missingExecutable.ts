/**
 * The error for a launch browser that does not exist, naming the one setting that gave the path
 * (flag over variable over config file, as they are merged), so the user fixes that one.
 */
import { flagValue, type FlagValues } from './configSources.js';
import { launchSettings as L } from './options/index.js';

export function missingExecutableMessage(
  executable: string,
  given: { flag: string | undefined; values: FlagValues; env: NodeJS.ProcessEnv },
): string {
  const entry = L.executablePath;
  const variable = entry.env ?? 'CHROME_PATH';
  const fromFlag = given.flag !== undefined || flagValue(given.values, entry) !== undefined;
  const fromEnv = !fromFlag && (given.env[variable] ?? '') !== '';
  const where = fromFlag
    ? `Fix --${entry.flag ?? 'executable-path'}, or leave it out to use ${variable} or an installed Chromium.`
    : fromEnv
      ? `It comes from the ${variable} environment variable: point ${variable} at your Chromium or Chrome binary (e.g. /usr/bin/chromium), or unset it to use an installed Chromium.`
      : `Fix ${entry.key ?? 'browser.executablePath'} in the config file, or remove it to use ${variable} or an installed Chromium.`;
  return `The browser executable does not exist: ${executable}. ${where}`;
}
