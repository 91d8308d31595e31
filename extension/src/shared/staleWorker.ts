/**
 * Chrome keeps an extension's service worker script in the profile (Service Worker/ScriptCache)
 * and registers it again only when the extension's version changes. A new build with the same
 * version (a rebuilt workspace, an npm update of the bridge) is loaded from disk for its pages,
 * manifest and content scripts, while the OLD worker keeps running from the cache, across browser
 * restarts: measured on a per-project launch profile, where yesterday's worker still answered
 * (without today's masking) after two launches. chrome.runtime.reload() registers the worker
 * from disk again, when an extension page calls it: the relay page (always loaded from disk)
 * asks its worker for its build, and reloads when the answer is another build or none (a worker
 * older than this query). Called from the worker itself, at its start or a second later, the
 * reload left the extension unloaded (ERR_BLOCKED_BY_CLIENT on its pages): measured, so the
 * worker does not check itself. The manifest's `version_name` ("0.1.0 build <id>") names the
 * build on disk for people and tests.
 */
const GUARD_KEY = 'staleWorkerReload';
/** One reload per pair of builds in this window: a reload that did not help is not repeated. */
const GUARD_MS = 120_000;
/** How long the page waits for the worker's answer before it leaves things as they are. */
const QUERY_MS = 3_000;

/**
 * Asks the worker for its build. 'none': it runs and did not answer with one (a worker older
 * than this query closes the port, or answers a relay page in a tab as if an overlay asked);
 * undefined: no answer in time (left alone).
 */
export async function workerBuild(): Promise<string | undefined> {
  const asked = chrome.runtime.sendMessage({ kind: 'build_query' }).then(
    (answer: unknown) => (typeof answer === 'string' ? answer : 'none'),
    (err: unknown) =>
      // An older worker's listener returns without answering: Chrome closes the port.
      /message port closed/i.test(String(err)) ? 'none' : undefined,
  );
  const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), QUERY_MS));
  return Promise.race([asked, late]);
}

/**
 * Reloads the extension when `running` (the worker's build) is not `expected`, at most once per
 * pair of builds in GUARD_MS; true when it asked Chrome to reload.
 */
export async function reloadIfStale(running: string, expected: string): Promise<boolean> {
  if (running === expected || expected === 'dev' || running === 'dev') return false;
  const { [GUARD_KEY]: last } = await chrome.storage.local.get<{
    [GUARD_KEY]?: { running: string; expected: string; at: number };
  }>(GUARD_KEY);
  if (
    last !== undefined &&
    last.running === running &&
    last.expected === expected &&
    Date.now() - last.at < GUARD_MS
  ) {
    console.error(
      `Browser Agent: the service worker runs build ${running}, the files on disk are build ${expected}, and a reload did not help. Reload the extension in chrome://extensions.`,
    );
    return false;
  }
  await chrome.storage.local.set({ [GUARD_KEY]: { running, expected, at: Date.now() } });
  chrome.runtime.reload();
  return true;
}
