/**
 * The one `zod` every schema of the protocol and the extension is built with: importing it
 * through here makes the setting below run before any schema exists.
 *
 * Zod decides, when its first object schema is created, whether it may compile parsers with
 * `new Function`. Under an extension's Content Security Policy that probe throws and Chrome
 * reports it as a violation (an error on the extension's page in chrome://extensions), and it
 * was the costliest statement of the service worker's start: 56–66 ms of a ~150 ms module
 * evaluation on a busy 2-core machine, before the link to the daemon could open (#26 item 3,
 * the first call). In the extension (service worker, side panel, content scripts) zod runs
 * interpreted, as it would after a failed probe, without the probe. Node (the server and the
 * daemon) is left as it was: the server sets jitless itself (mcp-server/src/server/call/
 * zodJitless.ts), and the daemon checks its hot frames by hand before zod.
 */
import { z } from 'zod';

interface MaybeExtension {
  chrome?: { runtime?: { id?: string } };
}

if ((globalThis as MaybeExtension).chrome?.runtime?.id !== undefined) z.config({ jitless: true });

export { z };
