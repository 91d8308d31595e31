/**
 * The names people know their MCP clients by. A client introduces itself with the name in its
 * MCP `initialize` (clientInfo.name), which is often a protocol id (`claude-ai`, `cursor-vscode`);
 * the panel, the tab groups and the overlay show the friendly name instead. An id not listed here
 * is shown as given: it is what the client chose to call itself.
 */
const FRIENDLY_NAMES: ReadonlyMap<string, string> = new Map([
  ['claude-ai', 'Claude Desktop'],
  ['claude-desktop', 'Claude Desktop'],
  ['claude-code', 'Claude Code'],
  ['cursor-vscode', 'Cursor'],
  ['cursor', 'Cursor'],
  ['visual studio code', 'VS Code'],
  ['visual studio code - insiders', 'VS Code Insiders'],
  ['vscode', 'VS Code'],
  ['windsurf-client', 'Windsurf'],
  ['windsurf', 'Windsurf'],
  ['mcp-inspector', 'MCP Inspector'],
  ['inspector-client', 'MCP Inspector'],
  ['zed', 'Zed'],
  ['cline', 'Cline'],
  ['roo-code', 'Roo Code'],
  ['continue-client', 'Continue'],
  ['gemini-cli-mcp-client', 'Gemini CLI'],
  ['codex-mcp-client', 'Codex'],
  ['goose', 'Goose'],
  ['jetbrains-ai-assistant', 'JetBrains AI Assistant'],
]);

/** The friendly name of a client id (case does not matter), else the id itself. */
export function friendlyClientName(id: string): string {
  return FRIENDLY_NAMES.get(id.trim().toLowerCase()) ?? id;
}
