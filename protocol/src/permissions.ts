/**
 * Issue #19's permission vocabulary, shared by the MCP server (config, elicitation), the daemon
 * (routing answers) and the extension (which decides; see extension/src/background/approvals/).
 */
import { z } from 'zod';
import { canonicalHost, canonicalSite, siteOrigin } from './originPolicy.js';

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

/** The parts of a WHATWG URL a pattern is matched against (protocol has no DOM lib). */
export interface SiteUrl {
  readonly origin: string;
  readonly hostname: string;
  readonly pathname: string;
}

/** A site pattern read once: its canonical host (see canonicalHost) and what else it names. */
interface SitePattern {
  /** Set for the origin form (`https://x.test:8080`): the canonical origin it names. */
  readonly origin: string | undefined;
  readonly host: string;
  /** `*.x.test`: subdomains only. */
  readonly subdomainsOnly: boolean;
  /** `x.test:3000`: that port on any scheme. */
  readonly port: string | undefined;
  /** `google.com/settings`: a path prefix, lower case; `/` for none. */
  readonly path: string;
}

function parseSitePattern(pattern: string): SitePattern | undefined {
  const p = pattern.trim();
  if (p === '') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(p);
  if (scheme) {
    const site = canonicalSite(p);
    const origin = siteOrigin(p);
    if (site === undefined || origin === undefined) return undefined;
    const rest = p.slice(scheme[0].length);
    const slash = rest.indexOf('/');
    return {
      origin,
      host: site.host,
      subdomainsOnly: false,
      port: undefined,
      path: pathPrefix(slash < 0 ? '/' : rest.slice(slash)),
    };
  }
  const subdomainsOnly = p.startsWith('*.');
  const body = subdomainsOnly ? p.slice(2) : p;
  const slash = body.indexOf('/');
  const authority = (slash < 0 ? body : body.slice(0, slash)).replace(/^.*@/, '');
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(authority);
  const host = m ? canonicalHost(m[1] ?? '') : undefined;
  if (host === undefined) return undefined;
  return {
    origin: undefined,
    host,
    subdomainsOnly,
    port: m?.[2] === undefined ? undefined : String(Number(m[2])),
    path: pathPrefix(slash < 0 ? '/' : body.slice(slash)),
  };
}

function pathPrefix(path: string): string {
  const trimmed = path.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function underPath(pathname: string, prefix: string): boolean {
  return prefix === '/' || pathname.toLowerCase().startsWith(prefix);
}

/**
 * Whether a URL matches a site pattern: `example.com` matches it and its subdomains,
 * `*.example.com` only subdomains, `example.com:3000` that port on any scheme, a pattern with a
 * scheme (`https://x.test:8080`) the origin exactly, and a path (`google.com/settings`) pages
 * under it. Both sides are compared in one spelling (canonicalHost, siteOrigin): case, trailing
 * dots, userinfo, Unicode names, IPv4 forms and default ports never decide a match.
 */
export function siteMatches(pattern: string, url: SiteUrl): boolean {
  const p = parseSitePattern(pattern);
  if (p === undefined) return false;
  if (!underPath(url.pathname, p.path)) return false;
  if (p.origin !== undefined) return siteOrigin(`${url.origin}/`) === p.origin;
  const host = canonicalHost(url.hostname);
  if (host === undefined) return false;
  const sub = host.endsWith(`.${p.host}`);
  if (p.subdomainsOnly ? !sub : host !== p.host && !sub) return false;
  return p.port === undefined || canonicalSite(`${url.origin}/`)?.port === p.port;
}
