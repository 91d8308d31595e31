/**
 * Extension and bridge of different releases: which side is older, and how to update it. The
 * same text goes to the extension (its panel shows it), to the agent (as the call's error when
 * the link is refused) and to `doctor`.
 */
import {
  ErrorCode,
  PROTOCOL_VERSION,
  compareReleases,
  type WireError,
} from '@browser-agent/protocol';

export const UPDATE_EXTENSION =
  'Update the extension: in launch mode restart the MCP client (the bridge loads the extension it ships); in your own Chrome, load the folder that `browser-agent-mcp extension` prints (chrome://extensions → Load unpacked, or reload it there).';
export const UPDATE_BRIDGE =
  'Update the bridge: `npm install -g @browser-agent/mcp-server@latest` (with npx, restart the MCP client so `npx -y` fetches the latest), then stop the old daemon (`browser-agent-mcp doctor` shows its pid).';

export interface Side {
  /** The release (package or manifest version); undefined when the side did not say. */
  release: string | undefined;
  protocol: number;
  /** The build identity (scripts/buildIdentity.mjs); undefined from builds before it. */
  build?: string | undefined;
}

/**
 * undefined when both sides are the same release; otherwise the error (`blocking`: the protocol
 * differs, so the link is refused) that names the side to update.
 */
export function versionSkew(
  extension: Side,
  bridge: Side = { release: undefined, protocol: PROTOCOL_VERSION },
): (WireError & { blocking: boolean }) | undefined {
  const blocking = extension.protocol !== bridge.protocol;
  const sameRelease = extension.release === undefined || extension.release === bridge.release;
  if (!blocking && sameRelease) return buildSkew(extension, bridge);
  const extensionOlder = blocking
    ? extension.protocol < bridge.protocol
    : compareReleases(extension.release, bridge.release) < 0;
  const name = (side: Side) =>
    `${side.release ?? 'an unknown release'} (protocol v${side.protocol})`;
  return {
    blocking,
    code: ErrorCode.VERSION_MISMATCH,
    message:
      `The Browser Agent extension is ${name(extension)} and the bridge (browser-agent-mcp) is ${name(bridge)}` +
      (blocking
        ? '; they cannot talk to each other.'
        : '; they still work together, but may differ in tools.'),
    hint: extensionOlder ? UPDATE_EXTENSION : UPDATE_BRIDGE,
  };
}

/**
 * Same release, another build (#26.5): a rebuilt or updated-in-place bridge, or an extension left
 * from an earlier build. Reported like a release skew; which side is older is unknown.
 */
function buildSkew(extension: Side, bridge: Side): (WireError & { blocking: boolean }) | undefined {
  if (extension.build === undefined || bridge.build === undefined) return undefined;
  if (extension.build === bridge.build) return undefined;
  return {
    blocking: false,
    code: ErrorCode.VERSION_MISMATCH,
    message: `The Browser Agent extension is build ${extension.build} and the bridge (browser-agent-mcp) is build ${bridge.build} of the same release ${bridge.release ?? extension.release ?? ''}; they still work together, but may differ in tools.`,
    hint: `Use the extension of this bridge's build: ${UPDATE_EXTENSION}`,
  };
}
