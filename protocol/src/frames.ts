/**
 * Frames crossing the two process boundaries:
 *   mcp-server ⇄ daemon      NDJSON over a Unix socket (one frame per line)
 *   daemon     ⇄ extension   WebSocket text frames (one frame per message)
 * Each link and direction carries its own union of these frames, with its own parser (links.ts).
 *
 * Handshake: the connecting side sends `hello` first; the daemon answers `welcome` (or an `error`
 * frame followed by close). Nothing else is accepted before the handshake. A server then sends
 * `register` (client name, project, optional session key) and gets `register_ok` with its
 * session id; only then may it send requests. After it:
 *   server → daemon → extension: `request`; extension → daemon → server: `response`.
 *   daemon → extension: `session_start` / `session_end` so the extension can set up and release
 *   a session's tabs; extension → daemon → server: `event` (informational).
 *   server → daemon → extension: `cancel` with a request's id when its caller gave up on it (an MCP
 *   cancel, a disconnect, a deadline); the call's handler is aborted and its answer is dropped.
 * Invariant: every `request` gets exactly one `response` with the same id and sessionId, unless
 * its caller cancelled it: a cancelled request gets at most one, which the caller ignores.
 */
import { z } from './zod.js';
import { PROTOCOL_VERSION, MAX_ID_CHARS } from './constants.js';
import { ErrorCode, wireErrorSchema, type WireError } from './errors.js';
import { hopsSchema, timingSchema } from './hops.js';
import { adminSitesSchema, APPROVAL_SCOPES, PERMISSION_MODES } from './permissions.js';
import { secretPrintsSchema } from './secretPrints.js';
import {
  loggedCallSchema,
  resumeStatsSchema,
  transactionLimitsSchema,
} from './transactionLimits.js';

const clientInfoSchema = z.object({ name: z.string().max(200), version: z.string().max(100) });
export type ClientInfo = z.infer<typeof clientInfoSchema>;

export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  role: z.enum(['server', 'extension']),
  client: clientInfoSchema.optional(),
  /** The sender's build identity (scripts/buildIdentity.mjs); absent from builds before it. */
  build: z.string().max(100).optional(),
  /** Extension only: a fresh nonce for the challenge, and the ids of the pairings it holds. */
  nonce: z.string().max(100).optional(),
  pairings: z.array(z.string().max(100)).max(50).optional(),
  /** Launch options a server asks the daemon to honour when it has to start a browser. */
  launch: z
    .object({
      headless: z.boolean(),
      executablePath: z.string().optional(),
      userDataDir: z.string().optional(),
      isolated: z.boolean(),
      /**
       * Names the server across its reconnects: the browser it had launched stays its own, where
       * another server's --isolated would be refused (it asks for a fresh profile).
       */
      owner: z.string().max(100).optional(),
      /** Extra Chromium flags: the proxy, and `browser.launchOptions.args` of the config. */
      args: z.array(z.string().max(4096)).max(100).optional(),
      /** CDP permission names granted to every origin (`--grant-permissions`). */
      grantPermissions: z.array(z.string().max(100)).max(50).optional(),
      /** Absolute: the browser saves downloads here (the server's output directory). */
      downloadDir: z.string().max(4096).optional(),
    })
    .optional(),
});
/** The hello each side may send: a server's on the Unix socket, the extension's on the WebSocket. */
export const serverHelloFrameSchema = helloFrameSchema.extend({ role: z.literal('server') });
export const extensionHelloFrameSchema = helloFrameSchema.extend({ role: z.literal('extension') });

/**
 * Mutual authentication of daemon and extension (a shared pairing secret K, never sent):
 *   ext → hello{nonce: nE, pairings: [ids]}
 *   daemon → challenge{pairingId, nonce: nD, proof: HMAC_K("daemon|nE|nD")}   (daemon proves K)
 *   ext → auth{proof: HMAC_K("extension|nD|nE")}                               (extension proves K)
 *   daemon → welcome
 * Fresh nonces on both sides make a recorded handshake useless. Without a shared pairing:
 *   daemon → pairing_required; ext → pair_start{publicKey}; daemon → pair_offer{publicKey}
 *   (ECDH P-256; both sides derive K) ext → pair_confirm{pairingId, proof}; daemon → paired, welcome.
 *   The proofs are keyed with the daemon's one-time code, which the user typed into the side panel
 *   (pairingProofs.ts): the extension proves first, the daemon's proof comes in `paired`.
 */
export const challengeFrameSchema = z.object({
  type: z.literal('challenge'),
  pairingId: z.string().max(100),
  nonce: z.string().max(100),
  proof: z.string().max(200),
});
export const authFrameSchema = z.object({ type: z.literal('auth'), proof: z.string().max(200) });
export const pairingRequiredFrameSchema = z.object({
  type: z.literal('pairing_required'),
  /**
   * The MCP clients connected to this daemon now (as each named itself), so the panel can say
   * who waits for the pairing; the daemon cannot tell which of them asked. Absent from older daemons.
   */
  clients: z.array(z.string().max(200)).max(20).optional(),
});
export const pairStartFrameSchema = z.object({
  type: z.literal('pair_start'),
  publicKey: z.string().max(200),
});
export const pairOfferFrameSchema = z.object({
  type: z.literal('pair_offer'),
  publicKey: z.string().max(200),
  pairingId: z.string().max(100),
  /** The PBKDF2 salt of the daemon's current one-time code (base64). */
  codeSalt: z.string().max(100).optional(),
});
export const pairConfirmFrameSchema = z.object({
  type: z.literal('pair_confirm'),
  pairingId: z.string().max(100),
  proof: z.string().max(200),
});
export const pairedFrameSchema = z.object({
  type: z.literal('paired'),
  pairingId: z.string().max(100),
  /** The daemon's proof that it knows the one-time code too, sent only after the extension's. */
  proof: z.string().max(200).optional(),
});

/**
 * Extension → daemon, on an authenticated link: the user forgot this pairing in the side panel,
 * so the daemon forgets its half too (and ends the link if it is the one in use).
 */
export const unpairFrameSchema = z.object({
  type: z.literal('unpair'),
  pairingId: z.string().max(100),
});

export const welcomeFrameSchema = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  /** The daemon's release (package version), so the panel can name a release skew. */
  release: z.string().max(100).optional(),
  /** The daemon's build identity; a daemon that sends none is of a build before it (#26.5). */
  build: z.string().max(100).optional(),
  /** To a server: how many other servers are connected to their sessions right now. */
  liveSessions: z.number().int().min(0).optional(),
});

/**
 * After the handshake a server registers its session, once it knows its MCP client's name.
 * A `sessionKey` (else the project) lets a restarted server take back its session while it is in
 * its grace period, unless a live server holds it.
 */
/**
 * Where a session's tabs may go, enforced in the extension on every document request
 * (navigations, redirects, popups, JS location changes). Entries are origins
 * ("https://example.com") or host patterns ("*.example.com"); block wins over allow.
 */
export const originPolicySchema = z.object({
  allowedOrigins: z.array(z.string().min(1).max(300)).max(200).optional(),
  blockedOrigins: z.array(z.string().min(1).max(300)).max(200).optional(),
  blockPrivateNetwork: z.boolean().optional(),
});
export type OriginPolicy = z.infer<typeof originPolicySchema>;

/**
 * How a session's tabs behave, from the server's settings (config file, env, flags): the
 * viewport every tab is given, how long input actions and navigations may take, and whether
 * file:// pages may be opened. Absent fields keep the extension's defaults.
 */
export const sessionSettingsSchema = z.object({
  viewport: z
    .object({
      width: z.number().int().min(1).max(10_000),
      height: z.number().int().min(1).max(10_000),
    })
    .optional(),
  actionTimeoutMs: z.number().int().positive().optional(),
  navigationTimeoutMs: z.number().int().positive().optional(),
  allowFileUrls: z.boolean().optional(),
  /** `--device` / `--mobile`: what a phone or tablet looks like to pages, besides its viewport. */
  emulation: z
    .object({
      deviceScaleFactor: z.number().min(0).max(10).optional(),
      mobile: z.boolean().optional(),
      touch: z.boolean().optional(),
      userAgent: z.string().max(1000).optional(),
    })
    .optional(),
  /**
   * Launch mode: the session has a blank tab from its start, as a browser a person opens does, so
   * browser_tabs lists it and a screenshot shows it before any navigation.
   */
  startsWithBlankTab: z.boolean().optional(),
  /** `--init-script`: source run in every document of the session's tabs before the page's own. */
  initScript: z.string().max(1_000_000).optional(),
  /** The config's default permission mode for this agent (permissions.ts); the panel may change it. */
  permissionMode: z.enum(PERMISSION_MODES).optional(),
  /** Sites an admin file allows or blocks for every agent; the panel cannot loosen them. */
  adminSites: adminSitesSchema.optional(),
  /** Absolute; launch mode: downloads are saved here (the server's output directory). */
  downloadDir: z.string().min(1).max(4096).optional(),
  /** Whether the panel's recording keeps a picture per step; absent: the panel's own setting. */
  recordSteps: z.boolean().optional(),
  /**
   * SHA-256 (hex) of each `--secrets` value, never the values: a question about typing one
   * masks it (approvals/questionTarget.ts).
   */
  secretDigests: z
    .array(z.string().regex(/^[0-9a-f]{64}$/))
    .max(1000)
    .optional(),
  /** Rolling prints of the same values: the page model hides one shown as page text in pixels. */
  secretPrints: secretPrintsSchema.optional(),
});
export type SessionSettings = z.infer<typeof sessionSettingsSchema>;

export const registerFrameSchema = z.object({
  type: z.literal('register'),
  client: clientInfoSchema,
  policy: originPolicySchema.optional(),
  settings: sessionSettingsSchema.optional(),
  project: z.string().max(4096).optional(),
  sessionKey: z.string().min(1).max(200).optional(),
  transactions: transactionLimitsSchema.optional(),
});

export const registerOkFrameSchema = z.object({
  type: z.literal('register_ok'),
  sessionId: z.string(),
  /** True when an existing session (same key, within its grace period) was taken back. */
  resumed: z.boolean(),
  /** On resume: the session's last calls from the write-ahead log (redacted), oldest first. */
  recentCalls: z.array(loggedCallSchema).max(50).optional(),
});

export const requestFrameSchema = z.object({
  type: z.literal('request'),
  id: z.string().min(1).max(MAX_ID_CHARS),
  sessionId: z.string().min(1).max(MAX_ID_CHARS),
  action: z.string().min(1).max(MAX_ID_CHARS),
  params: z.unknown(),
  /** How long the caller will wait; the daemon answers TIMEOUT when it runs out. */
  timeoutMs: z.number().int().positive().optional(),
  hops: hopsSchema.optional(),
});

export const responsePayloadSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), data: z.unknown() }),
  z.object({ success: z.literal(false), error: wireErrorSchema }),
]);

/** On the wire a response is laid out so routing hops need not parse its payload: responseText.ts. */
export const responseFrameSchema = z.object({
  type: z.literal('response'),
  id: z.string(),
  sessionId: z.string(),
  payload: responsePayloadSchema,
  hops: hopsSchema.optional(),
  timing: timingSchema.optional(),
});

/** A response's header as written in that layout: every field but the payload, and its length. */
export const responseHeaderSchema = z.strictObject({
  type: z.literal('response'),
  id: z.string().min(1).max(MAX_ID_CHARS),
  sessionId: z.string().max(MAX_ID_CHARS),
  hops: hopsSchema.optional(),
  timing: timingSchema.optional(),
  payloadChars: z.number().int().nonnegative(),
});
export type ResponseHeader = z.infer<typeof responseHeaderSchema>;

/** The caller gave up on a request: the next hop stops it (see the header). */
export const cancelFrameSchema = z.object({
  type: z.literal('cancel'),
  id: z.string().min(1).max(MAX_ID_CHARS),
  sessionId: z.string().min(1).max(MAX_ID_CHARS),
  reason: z.string().max(200).optional(),
});

/**
 * server → daemon, last before it closes the connection on purpose (its client ended): a server
 * started again with the session's key then resumes without the "resumed" notice, which is for
 * agents whose server was cut off (killed, crashed) and may have lost calls.
 */
export const byeFrameSchema = z.object({ type: z.literal('bye') });

export const eventFrameSchema = z.object({
  type: z.literal('event'),
  sessionId: z.string().optional(),
  event: z.string(),
  data: z.unknown(),
});

export const sessionStartFrameSchema = z.object({
  type: z.literal('session_start'),
  sessionId: z.string(),
  client: clientInfoSchema,
  project: z.string().optional(),
  policy: originPolicySchema.optional(),
  transactions: transactionLimitsSchema.optional(),
  /** Sent again once a resumed session answered its first call, with the time that took. */
  resume: resumeStatsSchema.optional(),
  settings: sessionSettingsSchema.optional(),
});

/**
 * server → daemon → extension: the user's answer to an approval question, given through the MCP
 * client (elicitation). The daemon overwrites `sessionId` with the server's own session.
 */
export const approvalAnswerFrameSchema = z.object({
  type: z.literal('approval_answer'),
  sessionId: z.string().max(MAX_ID_CHARS),
  questionId: z.string().min(1).max(MAX_ID_CHARS),
  allow: z.boolean(),
  scope: z.enum(APPROVAL_SCOPES).optional(),
});

export const sessionEndFrameSchema = z.object({
  type: z.literal('session_end'),
  sessionId: z.string(),
  reason: z.string(),
});

export const pingFrameSchema = z.object({ type: z.literal('ping'), t: z.number() });
export const pongFrameSchema = z.object({ type: z.literal('pong'), t: z.number() });

export const errorFrameSchema = z.object({ type: z.literal('error'), error: wireErrorSchema });

/** Every frame of the protocol, whichever way it goes; a receiver parses its own link's (links.ts). */
export const frameSchema = z.discriminatedUnion('type', [
  helloFrameSchema,
  welcomeFrameSchema,
  challengeFrameSchema,
  authFrameSchema,
  pairingRequiredFrameSchema,
  pairStartFrameSchema,
  pairOfferFrameSchema,
  pairConfirmFrameSchema,
  pairedFrameSchema,
  unpairFrameSchema,
  registerFrameSchema,
  registerOkFrameSchema,
  requestFrameSchema,
  responseFrameSchema,
  cancelFrameSchema,
  byeFrameSchema,
  eventFrameSchema,
  sessionStartFrameSchema,
  sessionEndFrameSchema,
  approvalAnswerFrameSchema,
  pingFrameSchema,
  pongFrameSchema,
  errorFrameSchema,
]);

export type Frame = z.infer<typeof frameSchema>;
export type FrameOf<T extends Frame['type']> = Extract<Frame, { type: T }>;
export type HelloFrame = FrameOf<'hello'>;
export type ServerHelloFrame = z.infer<typeof serverHelloFrameSchema>;
export type ExtensionHelloFrame = z.infer<typeof extensionHelloFrameSchema>;
export type RequestFrame = FrameOf<'request'>;
export type ResponseFrame = FrameOf<'response'>;
export type CancelFrame = FrameOf<'cancel'>;
export type ResponsePayload = ResponseFrame['payload'];

/** Checks a peer's hello version; the error says which side to update. */
export function checkVersion(peerVersion: number, peerName: string): WireError | undefined {
  if (peerVersion === PROTOCOL_VERSION) return undefined;
  const older = peerVersion < PROTOCOL_VERSION ? peerName : 'this side';
  return {
    code: ErrorCode.VERSION_MISMATCH,
    message: `Protocol version mismatch: ${peerName} speaks v${peerVersion}, this side speaks v${PROTOCOL_VERSION}.`,
    hint: `Update ${older} so both run the same Browser Agent release (rebuild with pnpm build and reload the extension).`,
  };
}
