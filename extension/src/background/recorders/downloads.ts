/**
 * Downloads a tab started (Page.downloadWillBegin / downloadProgress), reported in the result of
 * the call that started them: "Downloaded "report.csv" to /out/report.csv". In launch mode the
 * daemon's browser saves them in the server's output directory (session setting downloadDir).
 */
import type { AttachHook, Download, TabHandle } from '../tabStates';
import { quoted } from '../common/text';
import { delay } from '../common/timing';

/** A result waits this long at most for a download its call started to finish. */
const FINISH_WAIT_MS = 5_000;
const POLL_MS = 100;
/**
 * A click on an `<a download>` waits this long at most for Chrome to begin the download (it
 * begins once the server answers; locally some 10 ms after the click).
 */
const BEGIN_WAIT_MS = 2_000;
const BEGIN_POLL_MS = 10;

export const recordDownloads: AttachHook = ({ cdp, state }) => {
  const list: Download[] = [];
  state.downloads = list;
  cdp.on('Page.downloadWillBegin', (e, sessionId) => {
    if (sessionId !== undefined) return;
    list.push({
      guid: e.guid,
      file: e.suggestedFilename,
      state: 'inProgress',
      reported: false,
      seenAt: Date.now(),
    });
    if (list.length > 100) list.splice(0, list.length - 100);
  });
  cdp.on('Page.downloadProgress', (e, sessionId) => {
    if (sessionId !== undefined) return;
    const download = list.find((d) => d.guid === e.guid);
    if (download !== undefined && e.state !== 'inProgress') download.state = e.state;
  });
};

/**
 * After an action that asked for a download (settle.ts, downloadAsked): waits until Chrome
 * has begun one, so the action's result can say where it went; a download that begins later
 * is reported by the next call.
 */
export async function waitForDownloadBegin(
  tab: TabHandle,
  since: number,
  signal?: AbortSignal,
): Promise<void> {
  const begun = () => tab.state.downloads?.some((d) => d.seenAt >= since) === true;
  for (let waited = 0; waited < BEGIN_WAIT_MS && !begun(); waited += BEGIN_POLL_MS)
    await delay(BEGIN_POLL_MS, signal);
}

/**
 * What happened to the downloads not reported yet; waits a little for running ones. `folder`:
 * launch mode, where the daemon told the browser to save them (Browser.setDownloadBehavior).
 */
export async function downloadsSection(
  tab: TabHandle,
  folder: string | undefined,
): Promise<string | undefined> {
  const list = tab.state.downloads;
  if (!list.some((d) => !d.reported)) return undefined;
  for (let waited = 0; waited < FINISH_WAIT_MS; waited += POLL_MS) {
    if (!list.some((d) => !d.reported && d.state === 'inProgress')) break;
    await delay(POLL_MS);
  }
  const lines: string[] = [];
  for (const d of list) {
    if (d.reported) continue;
    const name = quoted(d.file);
    if (d.state === 'inProgress') {
      lines.push(`- Downloading ${name}…`);
      continue;
    }
    d.reported = true;
    if (d.state === 'canceled') lines.push(`- Download of ${name} was canceled`);
    else if (folder !== undefined)
      lines.push(`- Downloaded ${name} to ${quoted(`${folder}/${safeName(d.file)}`)}`);
    else lines.push(`- Downloaded ${name} (to the browser's download folder)`);
  }
  return lines.length === 0 ? undefined : `### Downloads\n${lines.join('\n')}`;
}

/** The name Chrome saves under, as far as we can tell: no path separators or controls. */
function safeName(file: string): string {
  return file.replace(/[\p{Cc}/\\]/gu, '_');
}
