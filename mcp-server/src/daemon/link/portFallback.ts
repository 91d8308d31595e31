/**
 * The bridge port when another program holds it (#27.3). The fixed port matters only to the
 * user's own Chrome, whose side panel connects to it; a browser this daemon launches is told its
 * port in the relay page's URL. So a taken port does not stop the daemon: it listens on a free
 * one, launch mode works as ever, and a call that needs the user's Chrome is told which port is
 * taken (notConnectedReason.ts) while doctor names the program holding it.
 */
import type { Logger } from '../../shared/logger.js';

export async function listenFallingBack<T>(
  port: number,
  log: Logger,
  listen: (port: number) => Promise<T>,
): Promise<T> {
  try {
    return await listen(port);
  } catch (err) {
    if (port === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    log.warn(
      `bridge port ${port} is taken by another program: listening on a free port instead (a browser this bridge launches is told it; your own Chrome's side panel looks for ${port}). \`browser-agent-mcp doctor\` names the program.`,
    );
    return listen(0);
  }
}

/** What a call that waits for the user's Chrome is told while the fixed port is taken. */
export function portTakenReason(taken: number, listening: number): string {
  return `Bridge port ${taken}, where the Browser Agent side panel in your Chrome connects, is taken by another program, so this bridge listens on port ${listening} instead.`;
}

export const PORT_TAKEN_HINT =
  "Tell the user: `browser-agent-mcp doctor` names the program holding the port. Stop it, or pick another port for both sides (BROWSER_AGENT_PORT in the MCP server's environment and the same port in the side panel's Settings), then restart the MCP client. Or use --launch, which does not need that port.";
