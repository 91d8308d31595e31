import type { OriginPolicy } from '@browser-agent/protocol';

function list(raw: string | undefined): string[] | undefined {
  const items = raw
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items && items.length > 0 ? items : undefined;
}

/**
 * The session's origin policy from BROWSER_AGENT_ALLOWED_ORIGINS, BROWSER_AGENT_BLOCKED_ORIGINS
 * (comma-separated origins or host patterns) and BROWSER_AGENT_BLOCK_PRIVATE_NETWORK=1.
 */
export function policyFromEnv(env: NodeJS.ProcessEnv): OriginPolicy | undefined {
  const allowedOrigins = list(env['BROWSER_AGENT_ALLOWED_ORIGINS']);
  const blockedOrigins = list(env['BROWSER_AGENT_BLOCKED_ORIGINS']);
  const blockPrivateNetwork = env['BROWSER_AGENT_BLOCK_PRIVATE_NETWORK'] === '1';
  if (!allowedOrigins && !blockedOrigins && !blockPrivateNetwork) return undefined;
  return {
    ...(allowedOrigins ? { allowedOrigins } : {}),
    ...(blockedOrigins ? { blockedOrigins } : {}),
    ...(blockPrivateNetwork ? { blockPrivateNetwork } : {}),
  };
}
