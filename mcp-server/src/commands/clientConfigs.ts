/**
 * Where each MCP client keeps its server list, and the shape of one entry there. The entry runs
 * the published package through npx (or, with `local`, this very install through node).
 */
import path from 'node:path';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** The name the server is listed under in every client's config. */
export const SERVER_KEY = 'browser-agent';
/** The published package; `npx -y <it>` runs its one bin, browser-agent-mcp. */
export const PACKAGE_NAME = '@browser-agent/mcp-server';

export interface Place {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export interface ClientConfig {
  file: string;
  /** The key under which servers are listed: `mcpServers`, or VS Code's `servers`. */
  listKey: 'mcpServers' | 'servers';
  /** VS Code wants `type: "stdio"` in the entry. */
  typed: boolean;
}

function appData(place: Place): string {
  return place.env['APPDATA'] ?? path.join(place.home, 'AppData', 'Roaming');
}

export function clientConfig(client: ClientName, place: Place): ClientConfig {
  const { home, platform } = place;
  switch (client) {
    case 'claude-desktop': {
      const dir =
        platform === 'darwin'
          ? path.join(home, 'Library', 'Application Support', 'Claude')
          : platform === 'win32'
            ? path.join(appData(place), 'Claude')
            : path.join(place.env['XDG_CONFIG_HOME'] ?? path.join(home, '.config'), 'Claude');
      return {
        file: path.join(dir, 'claude_desktop_config.json'),
        listKey: 'mcpServers',
        typed: false,
      };
    }
    case 'claude-code':
      // The user scope of Claude Code (`claude mcp add --scope user` writes the same place).
      return { file: path.join(home, '.claude.json'), listKey: 'mcpServers', typed: false };
    case 'cursor':
      return { file: path.join(home, '.cursor', 'mcp.json'), listKey: 'mcpServers', typed: false };
    case 'vscode': {
      const dir =
        platform === 'darwin'
          ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
          : platform === 'win32'
            ? path.join(appData(place), 'Code', 'User')
            : path.join(place.env['XDG_CONFIG_HOME'] ?? path.join(home, '.config'), 'Code', 'User');
      return { file: path.join(dir, 'mcp.json'), listKey: 'servers', typed: true };
    }
  }
}

export interface EntryOptions {
  /** Launch mode (the server starts its own Chromium); false: the user's Chrome with the extension. */
  launch: boolean;
  project?: string | undefined;
  /** node + this install's bin instead of npx + the package name. */
  local?: { node: string; bin: string } | undefined;
}

export interface ServerEntry {
  type?: 'stdio';
  command: string;
  args: string[];
}

export function serverEntry(client: ClientName, options: EntryOptions): ServerEntry {
  const flags = [
    ...(options.launch ? ['--launch'] : []),
    ...(options.project !== undefined ? ['--project', options.project] : []),
  ];
  const run = options.local
    ? { command: options.local.node, args: [options.local.bin, ...flags] }
    : { command: 'npx', args: ['-y', PACKAGE_NAME, ...flags] };
  return client === 'vscode' ? { type: 'stdio', ...run } : run;
}
