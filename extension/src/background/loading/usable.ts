/**
 * What of a new page is still loading when it counts as usable (settle.ts, waitUntilUsable):
 * its DOMContentLoaded, then a short, capped settle while its
 * network and DOM are still busy (scripts that load modules and render after load, as
 * RequireJS apps do). Never the load event of its slowest subresource: a hung font, pixel or ad
 * frame holds the load event forever, and the page is there long before. What is still loading
 * is named in the result instead.
 */
import type { TabHandle } from '../tabStates';
import { oneLine, untrustedSection } from '../common/text';

const MAX_URLS_SHOWN = 3;

/**
 * The requests of this page that have not answered (started since `since`), as a line and a
 * fenced list of a few URLs; empty when nothing is pending.
 */
export function stillLoadingReport(tab: TabHandle, since: number): string {
  const pending = tab.state.network.filter(
    (e) => !e.finished && e.startedAt >= since && e.browsersOwn !== true,
  );
  if (pending.length === 0) return '';
  const kinds = new Map<string, number>();
  for (const e of pending) {
    const kind = e.resourceType.toLowerCase();
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const byKind = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const urls = pending.slice(0, MAX_URLS_SHOWN).map((e) => oneLine(e.url, 200));
  const more =
    pending.length > MAX_URLS_SHOWN ? `\n… and ${pending.length - MAX_URLS_SHOWN} more` : '';
  return `\n- Still loading: ${pending.length} request(s) (${byKind}); the page is usable, and browser_snapshot shows what has loaded.\n${untrustedSection('Pending requests', urls.join('\n') + more)}`;
}
