/**
 * What a call is about, in words, for the log line of a tool whose title alone says too little:
 * "Wait for" becomes `Wait for the text "Done"` or `Wait for 3 s`. Read from the call's own
 * arguments before anything is hidden: the text a wait looks for is text the page shows anyway.
 */
const MAX_QUOTED_CHARS = 60;

function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line}"`;
}

export function callSubject(tool: string, params: unknown): string | undefined {
  if (tool !== 'browser_wait_for' || typeof params !== 'object' || params === null)
    return undefined;
  const p = params as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof p['text'] === 'string') parts.push(`the text ${quoted(p['text'])}`);
  if (typeof p['textGone'] === 'string') parts.push(`the text ${quoted(p['textGone'])} to go`);
  if (typeof p['selector'] === 'string')
    parts.push(
      `${quoted(p['selector'])} to be ${typeof p['state'] === 'string' ? p['state'] : 'visible'}`,
    );
  if (p['networkIdle'] === true) parts.push('the network to be idle');
  if (typeof p['time'] === 'number') parts.push(`${p['time']} s`);
  if (parts.length === 0) return undefined;
  const timeout = p['time'] === undefined ? p['timeout'] : undefined;
  return `${parts.join(' and ')}${typeof timeout === 'number' ? ` (up to ${timeout} s)` : ''}`;
}
