/**
 * What a call is told when the extension link is down: a better answer than NOT_CONNECTED
 * whenever the daemon knows why (a refused release, a pairing code waiting for the user, a
 * launch that failed, a launched browser still starting). The same facts `doctor` reports from
 * status.json, told to the agent so it can tell the user.
 */
import { ErrorCode, type WireError } from '@browser-agent/protocol';
import { notConnected } from '../router.js';
import { PORT_TAKEN_HINT, portTakenReason } from './portFallback.js';

export interface LinkFacts {
  connected: boolean;
  /** Why the last extension was refused, if it was; `blocking` when the protocol differs. */
  skew: (WireError & { blocking: boolean }) | undefined;
  /**
   * The one-time pairing code shown to the user, unless launch mode pairs by itself. A function:
   * asking for it may mint a new code, so it is asked only when the answer depends on it.
   */
  pairingCode: () => string | undefined;
  /** A connection is waiting now for the user to type the code in its side panel. */
  awaitingCode: boolean;
  /**
   * Pairings are stored: a paired browser's panel reconnects without any code. A function:
   * the answer is read from the store on disk, so it is asked only when the link is down (every
   * call built these facts, and read the store while connected before #26).
   */
  paired: () => boolean;
  launchError: string | undefined;
  /** A browser this daemon launched is running (it may not have connected yet). */
  launching: boolean;
  port: number;
  /** The fixed port another program holds (the link listens on `port` instead). */
  portTaken?: number | undefined;
  /** The release the last extension named in its hello. */
  extensionRelease: string | undefined;
}

export function whyNotConnected(facts: LinkFacts): WireError | undefined {
  if (facts.connected) return undefined;
  if (facts.skew?.blocking) {
    const { code, message, hint } = facts.skew;
    return { code, message, hint };
  }
  // Once a browser is paired, a closed panel is the likelier cause than a code: the code is the
  // answer only while a panel waits for it (or nothing was ever paired).
  const code = facts.awaitingCode || !facts.paired() ? facts.pairingCode() : undefined;
  if (code !== undefined) {
    return {
      code: ErrorCode.NOT_PAIRED,
      message: `The Browser Agent extension asks to pair with this bridge. The one-time pairing code is ${code}.`,
      hint: `Tell the user: open the Browser Agent side panel and type the code ${code} there, then retry (\`browser-agent-mcp doctor\` shows the pairing state). Only the user can do this; the code works once, and three wrong tries replace it with a new one.`,
    };
  }
  if (facts.launchError !== undefined) {
    return {
      code: ErrorCode.LAUNCH_FAILED,
      message: facts.launchError,
      hint: 'Fix the browser setup (see the message), then restart the MCP client. `browser-agent-mcp doctor` names what is wrong.',
    };
  }
  const { port } = facts;
  if (facts.launching) {
    return notConnected(
      `The browser this bridge launched has not connected yet (port ${port}); it may still be starting.`,
    );
  }
  if (facts.portTaken !== undefined) {
    return {
      code: ErrorCode.NOT_CONNECTED,
      message: portTakenReason(facts.portTaken, port),
      hint: PORT_TAKEN_HINT,
    };
  }
  return {
    code: ErrorCode.NOT_CONNECTED,
    message:
      facts.extensionRelease === undefined
        ? `No Browser Agent extension has contacted this bridge (port ${port}).`
        : `The Browser Agent extension (${facts.extensionRelease}) is not connected to this bridge (port ${port}).`,
    hint: 'Tell the user: open the Browser Agent side panel in Chrome (if the extension is not installed, load the folder `browser-agent-mcp extension` prints), or restart the MCP server with --launch. `browser-agent-mcp doctor` checks each part and says what to fix.',
  };
}
