/** Launch mode: the Chromium the server starts with the extension loaded (`--launch`). */
import { setting } from '../setting.js';
import { bool, text, textList } from './values.js';

export const launchSettings = {
  launch: setting({
    key: 'browser.launch',
    flag: 'launch',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Start Chromium with the extension loaded (no Chrome setup needed); "browser": {"launch": true} in the --config file does the same.',
  }),
  headless: setting({
    key: 'browser.headless',
    flag: 'headless',
    negation: 'headed',
    env: 'BROWSER_AGENT_HEADLESS',
    kind: 'bool',
    schema: bool(),
    defaultText: 'headless when there is no display',
    help: 'Force headless or headed.',
    needs: 'launch',
    theirs: [
      { flag: '--headless', note: 'launch mode; `--headed` too' },
      { key: 'browser.launchOptions.headless' },
    ],
  }),
  executablePath: setting({
    key: 'browser.executablePath',
    flag: 'executable-path',
    env: 'CHROME_PATH',
    kind: 'string',
    schema: text(),
    arg: '<p>',
    defaultText: 'the usual install paths',
    help: 'Browser binary, else CHROME_PATH.',
    needs: 'launch',
    theirs: [
      { flag: '--executable-path', note: 'launch mode' },
      { key: 'browser.launchOptions.executablePath' },
    ],
  }),
  isolated: setting({
    flag: 'isolated',
    kind: 'bool',
    help: 'A fresh in-memory browser context per session, in one browser all isolated sessions share; nothing is kept (a per-run choice: no config key).',
    needs: 'launch',
    theirs: [{ flag: '--isolated', note: 'launch mode' }],
  }),
  userDataDir: setting({
    flag: 'user-data-dir',
    kind: 'string',
    arg: '<dir>',
    help: 'Profile directory to use (a per-run choice: no config key).',
    needs: 'launch',
    theirs: [{ flag: '--user-data-dir', note: 'launch mode' }],
  }),
  proxyServer: setting({
    key: 'browser.launchOptions.proxy.server',
    flag: 'proxy-server',
    env: 'BROWSER_AGENT_PROXY_SERVER',
    kind: 'string',
    schema: text(),
    arg: '<url>',
    help: 'Proxy for the browser ("http://host:port", "socks5://…").',
    needs: 'launch',
    theirs: [
      { flag: '--proxy-server', note: 'launch mode' },
      { key: 'browser.launchOptions.proxy.server', note: 'launch mode' },
    ],
  }),
  proxyBypass: setting({
    key: 'browser.launchOptions.proxy.bypass',
    flag: 'proxy-bypass',
    env: 'BROWSER_AGENT_PROXY_BYPASS',
    kind: 'string',
    schema: text(),
    arg: '<list>',
    help: 'Hosts that skip the proxy (comma-separated); needs a proxy server.',
    needs: 'launch',
    theirs: [
      { flag: '--proxy-bypass', note: 'launch mode' },
      { key: 'browser.launchOptions.proxy.bypass', note: 'launch mode' },
    ],
  }),
  launchArgs: setting({
    key: 'browser.launchOptions.args',
    kind: 'list',
    schema: textList('Chromium flags like "--lang=de"', 100),
    help: "Extra Chromium flags; the launcher's own and the remote-debugging ones are refused.",
    theirs: [
      { key: 'browser.launchOptions.args', note: "launch mode; the launcher's own flags refused" },
      { flag: '--user-agent', note: 'launch mode: `["--user-agent=…"]` in the config file' },
      {
        flag: '--no-sandbox',
        note: 'added by itself when running as root; else `["--no-sandbox"]`',
      },
    ],
  }),
  grantPermissions: setting({
    key: 'browser.grantPermissions',
    flag: 'grant-permissions',
    env: 'BROWSER_AGENT_GRANT_PERMISSIONS',
    kind: 'list',
    schema: textList('permission names like "geolocation"', 50),
    arg: '<l>',
    help: 'Permissions every origin has (geolocation,clipboard-read,…).',
    needs: 'launch',
    theirs: [
      {
        flag: '--grant-permissions',
        note: "launch mode; Playwright's names (`geolocation`, `clipboard-read`, …)",
      },
      { key: 'browser.contextOptions.permissions' },
    ],
  }),
};
