/**
 * Every setting, by concern. Order here is the order of --help and of the docs' tables.
 * A new setting is one entry in the file of its concern (a new concern: a file and a line here).
 */
import type { SettingEntry, SettingGroup } from '../setting.js';
import { httpSettings } from './http.js';
import { launchSettings } from './launch.js';
import { originSettings } from './origins.js';
import { outputSettings } from './output.js';
import { pageSettings } from './pages.js';
import { serverSettings } from './server.js';
import { transactionSettings } from './transactions.js';

export const SETTING_GROUPS: readonly SettingGroup[] = [
  { title: 'Launch mode (--launch)', settings: launchSettings },
  { title: 'Server', settings: serverSettings },
  { title: 'Pages', settings: pageSettings },
  { title: 'Sites and permissions', settings: originSettings },
  { title: 'Files and results', settings: outputSettings },
  { title: 'Transactions', settings: transactionSettings },
  { title: 'Streamable HTTP (--port)', settings: httpSettings },
];

export const ALL_SETTINGS: readonly SettingEntry[] = SETTING_GROUPS.flatMap((g) =>
  Object.values(g.settings),
);

export {
  httpSettings,
  launchSettings,
  originSettings,
  outputSettings,
  pageSettings,
  serverSettings,
  transactionSettings,
};
