/**
 * The frames between an isolated session's daemon and the isolated host, the one process that
 * runs the browser every `--isolated` session shares (NDJSON over the host's Unix socket, one
 * browser context per connection). Both ends are this package, but the socket is a boundary all
 * the same: every frame is checked, and a bad one ends its connection, never the host.
 */
import { EXTENSION_ID } from '@browser-agent/protocol';
import { z } from 'zod';

const MAX_PATH_CHARS = 4096;

/** The first and only request on a connection: a browser context with this relay page in it. */
export const openFrame = z.strictObject({
  type: z.literal('open'),
  // Only our own extension's page: the host opens nothing else for anyone.
  relayUrl: z
    .string()
    .max(MAX_PATH_CHARS)
    .refine((url) => url.startsWith(`chrome-extension://${EXTENSION_ID}/`), {
      message: "the relay URL must be this extension's page",
    }),
  /** The session's download folder (its server's output directory). */
  downloadDir: z.string().min(1).max(MAX_PATH_CHARS).optional(),
  /** CDP permission names granted to every origin in this context. */
  grantPermissions: z.array(z.string().max(100)).max(50).optional(),
});
export type OpenFrame = z.infer<typeof openFrame>;

export const hostAnswer = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('opened'),
    contextId: z.string(),
    /** The shared browser's (temporary) profile, for doctor and the launch checks. */
    profile: z.string(),
  }),
  z.strictObject({ type: z.literal('failed'), message: z.string() }),
]);
export type HostAnswer = z.infer<typeof hostAnswer>;

/** What the shared browser is started with; a server asking for other values gets another host. */
export interface HostLaunch {
  executable: string;
  headless: boolean;
  /** Extra Chromium flags (proxy, config launchOptions.args): browser-wide, so part of the key. */
  args: string[];
}
