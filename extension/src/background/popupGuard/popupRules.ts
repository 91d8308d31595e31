import { parseOriginEntry, type OriginPolicy } from '@browser-agent/protocol';

type Rule = chrome.declarativeNetRequest.Rule;

/**
 * Where a session's popup rules apply: tabs the extension does not know yet (a popup being
 * created), whose request was started by a page on one of the session's sites.
 */
export interface PopupScope {
  /** Hosts of the session's tabs: a popup's (and its frames') initiator is its opener's origin. */
  initiatorDomains: string[];
  /** Every tab already known: the session's own (guarded over CDP) and the user's. */
  excludedTabIds: number[];
}

/** Explicit blocks and private addresses beat the allow list, which beats the catch-all. */
const PRIORITY = { block: 3, allow: 2, unlisted: 1 } as const;
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };
const USERINFO = '(?:[^/?#@]*@)?';
const END = '(?:[/?#]|$)';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One origin-list entry as RE2 regexes over the canonical URL Chrome matches (lower-case host,
 * default port left out, IPv4 in dotted decimal), one per scheme it covers. Undefined for an
 * entry the config would refuse anyway.
 */
export function entryRegexes(entry: string): string[] | undefined {
  const p = parseOriginEntry(entry);
  if (!p) return undefined;
  const schemes = p.scheme === undefined ? ['http', 'https'] : [p.scheme];
  const literal6 = p.host.includes(':');
  const host = literal6
    ? `\\[${escape(p.host)}\\]`
    : `${p.subdomains ? '(?:[^/?#@:]+\\.)?' : ''}${escape(p.host)}\\.?`;
  return schemes
    .filter((s) => s in DEFAULT_PORTS)
    .map((scheme) => {
      const fallback = DEFAULT_PORTS[scheme];
      let port: string;
      if (p.port === '*' || (p.port === undefined && p.scheme === undefined)) port = '(?::\\d+)?';
      else if (p.port === undefined || p.port === fallback) port = `(?::${fallback})?`;
      else port = `:${p.port}`;
      return `^${scheme}://${USERINFO}${host}${port}${END}`;
    });
}

/**
 * Private-network hosts as the canonical URL spells them. Broader than `isPrivateHost` for
 * IPv6: every address under `::/96` and `64:ff9b::/96` is refused, whatever IPv4 address it
 * embeds, because a regex cannot read the embedded one in its hex form.
 */
export const PRIVATE_REGEXES: readonly string[] = [
  `^https?://${USERINFO}(?:[^/?#@:]+\\.)?localhost\\.?(?::\\d+)?${END}`,
  `^https?://${USERINFO}(?:(?:0|10|127)\\.\\d+\\.\\d+\\.\\d+|172\\.(?:1[6-9]|2\\d|3[01])\\.\\d+\\.\\d+|192\\.168\\.\\d+\\.\\d+|169\\.254\\.\\d+\\.\\d+|100\\.(?:6[4-9]|[7-9]\\d|1[01]\\d|12[0-7])\\.\\d+\\.\\d+)\\.?(?::\\d+)?${END}`,
  `^https?://${USERINFO}\\[(?:::[0-9a-f:.]*|64:ff9b::[0-9a-f:.]*|f[cd][0-9a-f]{2}:[0-9a-f:.]*|fe[89ab][0-9a-f]:[0-9a-f:.]*)\\](?::\\d+)?${END}`,
];

/**
 * A session's origin policy as declarativeNetRequest session rules for the documents (top
 * frames and frames) of tabs in `scope`. Ids count up from `firstId`.
 */
export function popupRules(policy: OriginPolicy, scope: PopupScope, firstId: number): Rule[] {
  const condition = {
    resourceTypes: ['main_frame', 'sub_frame'] as chrome.declarativeNetRequest.ResourceType[],
    initiatorDomains: scope.initiatorDomains,
    // An empty list is refused by Chrome; with no tab known, every tab is a new one.
    ...(scope.excludedTabIds.length > 0 ? { excludedTabIds: scope.excludedTabIds } : {}),
    isUrlFilterCaseSensitive: false,
  };
  const rules: Rule[] = [];
  const add = (priority: number, type: 'block' | 'allow', regexFilter: string): void => {
    rules.push({
      id: firstId + rules.length,
      priority,
      action: { type },
      condition: { ...condition, regexFilter },
    });
  };
  for (const entry of policy.blockedOrigins ?? [])
    for (const regex of entryRegexes(entry) ?? []) add(PRIORITY.block, 'block', regex);
  if (policy.blockPrivateNetwork)
    for (const regex of PRIVATE_REGEXES) add(PRIORITY.block, 'block', regex);
  if (policy.allowedOrigins && policy.allowedOrigins.length > 0) {
    for (const entry of policy.allowedOrigins)
      for (const regex of entryRegexes(entry) ?? []) add(PRIORITY.allow, 'allow', regex);
    add(PRIORITY.unlisted, 'block', '^https?://');
  }
  return rules;
}
