/**
 * Whether the tab's browser shows a PDF in its viewer or saves it (issue #25). Chrome saves PDFs
 * when its viewer is off: the "Download PDFs" setting, the AlwaysOpenPdfExternally policy, or a
 * build or mode without the viewer. `navigator.pdfViewerEnabled` says which. It is read by the
 * tab's content script (its isolated world: a page's own getter on Navigator cannot answer), not
 * over the debugger: while the gate holds a navigation's response, Chrome defers DevTools
 * commands for the navigating frame's renderer (Page.getFrameTree, Runtime.evaluate) until the
 * navigation commits, so they would wait forever.
 */
import type { GuardMessage } from '../../shared/messages';

/** False when the viewer is off or the tab cannot answer (not an http(s) page: the gate holds). */
export async function pdfViewerAvailable(tabId: number): Promise<boolean> {
  const probe: GuardMessage = { kind: 'pdf_viewer_probe' };
  const answer: unknown = await chrome.tabs
    .sendMessage(tabId, probe, { frameId: 0 })
    .catch(() => undefined);
  return answer === true;
}
