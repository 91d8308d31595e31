/** The server itself: where its settings and project come from, which tools it lists, its bridge. */
import { DEFAULT_BRIDGE_PORT, TOOL_GROUPS } from '@browser-agent/protocol';
import { setting } from '../setting.js';
import { oneOf } from './values.js';

const OPT_IN_GROUPS = TOOL_GROUPS.filter((g) => g !== 'core');

export const serverSettings = {
  config: setting({
    flag: 'config',
    env: 'BROWSER_AGENT_CONFIG',
    kind: 'string',
    arg: '<file>',
    help: 'JSON settings (docs/configuration.md); flags and variables win over it.',
    theirs: [{ flag: '--config', note: 'the keys differ: see below' }],
  }),
  project: setting({
    flag: 'project',
    kind: 'string',
    arg: '<dir>',
    help: 'The project (when the client gives no MCP roots); with --launch its browser profile is <dir>/.user-session-data-directory.',
  }),
  caps: setting({
    flag: 'caps',
    kind: 'list',
    arg: '<g1,g2>',
    help: `Also list these tool groups: ${OPT_IN_GROUPS.join(', ')}.`,
    theirs: [
      { flag: '--caps', note: `groups: ${OPT_IN_GROUPS.map((g) => `\`${g}\``).join(', ')}` },
    ],
  }),
  toolNames: setting({
    key: 'toolNames',
    flag: 'tool-names',
    env: 'BROWSER_AGENT_TOOL_NAMES',
    kind: 'string',
    schema: oneOf(['default', 'executeautomation']),
    default: 'default',
    arg: '<set>',
    help: "Also list tools under another server's names: executeautomation.",
  }),
  bridgePort: setting({
    flag: 'bridge-port',
    // Read by whoever starts or reaches the daemon (daemon/main.ts, session/); the flag sets it.
    env: 'BROWSER_AGENT_PORT',
    kind: 'int',
    default: DEFAULT_BRIDGE_PORT,
    arg: '<n>',
    help: 'Port of the extension relay WebSocket.',
  }),
  help: setting({
    flag: 'help',
    aliases: ['h'],
    kind: 'bool',
    help: 'Print this help.',
  }),
  version: setting({
    flag: 'version',
    kind: 'bool',
    help: "Print the server's version.",
  }),
};
