/**
 * The file chooser as a modal state. The attach hook asks Chrome to hand file choosers to us
 * (Page.setInterceptFileChooserDialog) instead of opening the system dialog, which would hang
 * the agent's click; an opened chooser is recorded, listed with every result under Modal state,
 * and answered by browser_file_upload without a target (files set on its input, or cancelled).
 * A new document has no chooser.
 */
import type { AttachHook, OpenFileChooser, TabHandle } from '../tabStates';

export type { OpenFileChooser } from '../tabStates';

export const trackFileChoosers: AttachHook = async (tab) => {
  const { state, cdp } = tab;
  cdp.on('Page.fileChooserOpened', (e, sessionId) => {
    if (e.backendNodeId === undefined) return;
    state.fileChooser = { backendNodeId: e.backendNodeId, mode: e.mode, sessionId };
  });
  cdp.on('Page.frameNavigated', (e, sessionId) => {
    if (e.frame.parentId === undefined && sessionId === undefined) state.fileChooser = undefined;
  });
  // An older Chrome without the command keeps opening the system dialog; nothing else changes.
  await cdp.send('Page.setInterceptFileChooserDialog', { enabled: true }).catch(() => undefined);
};

/** The tab's open file chooser, if one is waiting for files. */
export function openFileChooser(tab: TabHandle): OpenFileChooser | undefined {
  return tab.state.fileChooser;
}

/** The chooser was answered (files set, or cancelled). */
export function closeFileChooser(tab: TabHandle): void {
  tab.state.fileChooser = undefined;
}

/** Answered through its input directly (browser_file_upload with a target): no longer waiting. */
export function inputAnswered(tab: TabHandle, backendNodeId: number): void {
  if (tab.state.fileChooser?.backendNodeId === backendNodeId) tab.state.fileChooser = undefined;
}

/** The Modal state line of an open file chooser. */
export function fileChooserLine(tab: TabHandle): string | undefined {
  const chooser = tab.state.fileChooser;
  if (chooser === undefined) return undefined;
  const files = chooser.mode === 'selectMultiple' ? 'files' : 'a file';
  return `- [File chooser for ${files}]: call browser_file_upload with paths (no target) to choose, or without paths to cancel.`;
}
