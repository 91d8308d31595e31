/** Where the agent may go, and when it asks the user first (docs/security.md, permissions.md). */
import { PERMISSION_MODES } from '@browser-agent/protocol';
import { setting } from '../setting.js';
import { bool, oneOf, originList } from './values.js';

export const originSettings = {
  allowedOrigins: setting({
    key: 'allowedOrigins',
    flag: 'allowed-origins',
    env: 'BROWSER_AGENT_ALLOWED_ORIGINS',
    kind: 'list',
    schema: originList(),
    defaultText: 'none: every origin',
    arg: '<list>',
    help: 'Only these origins (comma-separated; "*.example.com" patterns too).',
    theirs: [{ flag: '--allowed-origins' }, { key: 'network.allowedOrigins' }],
  }),
  blockedOrigins: setting({
    key: 'blockedOrigins',
    flag: 'blocked-origins',
    env: 'BROWSER_AGENT_BLOCKED_ORIGINS',
    kind: 'list',
    schema: originList(),
    defaultText: 'none',
    arg: '<list>',
    help: 'Never these origins (a block beats an allow).',
    theirs: [
      { flag: '--blocked-origins', note: 'plus `--block-private-network`' },
      { key: 'network.blockedOrigins' },
    ],
  }),
  blockPrivateNetwork: setting({
    key: 'blockPrivateNetwork',
    flag: 'block-private-network',
    env: 'BROWSER_AGENT_BLOCK_PRIVATE_NETWORK',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Refuse loopback, RFC 1918 and link-local addresses.',
  }),
  allowFileUrls: setting({
    key: 'allowFileUrls',
    flag: 'allow-file-urls',
    env: 'BROWSER_AGENT_ALLOW_FILE_URLS',
    kind: 'bool',
    schema: bool(),
    default: false,
    help: 'Let the agent open file:// URLs.',
    theirs: [
      {
        flag: '--allow-unrestricted-file-access',
        note: '`file://` navigation; uploads from `--upload-dirs`',
      },
    ],
  }),
  permissionMode: setting({
    key: 'permissionMode',
    flag: 'permission-mode',
    env: 'BROWSER_AGENT_PERMISSION_MODE',
    kind: 'string',
    schema: oneOf(PERMISSION_MODES),
    defaultText: "the side panel's choice for new agents",
    arg: '<m>',
    help: 'ask, per-site or autonomous: when the agent asks you before acting; the panel may change it.',
  }),
};
