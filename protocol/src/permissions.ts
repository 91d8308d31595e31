/**
 * Issue #19's permission vocabulary, shared by the MCP server (config, elicitation), the daemon
 * (routing answers) and the extension (which decides; see extension/src/background/approvals/).
 */
import { z } from './zod.js';

/**
 * - `ask`: every state-changing call waits for the user's Allow / Deny.
 * - `per-site`: the first state-changing call on a site not yet granted asks; "Allow on this
 *   site" is remembered.
 * - `autonomous`: nothing is asked, except on sensitive sites.
 * Read-only tools (annotations.readOnlyHint) never ask in any mode.
 */
export const PERMISSION_MODES = ['ask', 'per-site', 'autonomous'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/**
 * What one Allow covers: this call only, this site from now on (a grant), or every call of the
 * agent until its task ends (the session ends, or it makes no call for TASK_IDLE_MS).
 */
export const APPROVAL_SCOPES = ['once', 'site', 'task'] as const;
export type ApprovalScope = (typeof APPROVAL_SCOPES)[number];

/** A "rest of this task" answer lapses after this long without a call of the agent. */
export const TASK_IDLE_MS = 10 * 60_000;

const sitePatterns = z.array(z.string().min(1).max(300)).max(500);

/** An admin file's site lists (see docs/permissions.md): the panel can show, never loosen them. */
export const adminSitesSchema = z.object({
  /** When set, agents act only on these sites. */
  allow: sitePatterns.optional(),
  /** Agents never act on these sites; a block beats any grant. */
  block: sitePatterns.optional(),
  /** Where they came from, for the panel ("set by /etc/browser-agent/policy.json"). */
  source: z.string().max(500),
});
export type AdminSites = z.infer<typeof adminSitesSchema>;

/** extension → daemon → server: a question waits for the user; the server may elicit it. */
export const APPROVAL_QUESTION_EVENT = 'approval_question';
/** extension → daemon → server: the question was answered elsewhere or expired. */
export const APPROVAL_CLOSED_EVENT = 'approval_closed';

export const approvalQuestionEventSchema = z.object({
  questionId: z.string().min(1).max(100),
  /** The question in one sentence, as the side panel shows it. */
  message: z.string().max(2000),
  /** The scopes the user may pick besides Deny. */
  scopes: z.array(z.enum(APPROVAL_SCOPES)).min(1).max(3),
  expiresAt: z.number(),
});
export type ApprovalQuestionEvent = z.infer<typeof approvalQuestionEventSchema>;

export const approvalClosedEventSchema = z.object({ questionId: z.string().min(1).max(100) });
