/**
 * The bridge's `welcome` names its release; when it is not this extension's, the link still
 * works (same protocol) but the panel says which side is older and how to update it. The daemon
 * words a protocol skew the same way (mcp-server/src/daemon/versionSkew.ts) and refuses it.
 */
import { compareReleases } from '@browser-agent/protocol';

export function releaseSkewNotice(
  bridge: string | undefined,
  extension: string,
): string | undefined {
  if (bridge === undefined || bridge === extension) return undefined;
  const extensionOlder = compareReleases(extension, bridge) < 0;
  return (
    `The bridge (browser-agent-mcp) is release ${bridge} and this extension is ${extension}. ` +
    (extensionOlder
      ? 'Update the extension: in launch mode restart the MCP client; in your own Chrome load the folder that `browser-agent-mcp extension` prints (or reload it in chrome://extensions).'
      : 'Update the bridge: npm install -g @browser-agent/mcp-server@latest (with npx, restart the MCP client), then stop the old daemon (browser-agent-mcp doctor shows its pid).')
  );
}
