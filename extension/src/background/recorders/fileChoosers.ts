/**
 * The file chooser as a modal state. The attach hook asks Chrome to hand file choosers to us
 * (Page.setInterceptFileChooserDialog) instead of opening the system dialog, which would hang
 * the agent's click; an opened chooser is recorded, listed with every result under Modal state,
 * and answered by browser_file_upload without a target (files set on its input, or cancelled).
 * A new document has no chooser.
 */
import type { AttachHook, TabHandle } from '../tabStates';

export interface OpenFileChooser {
  /** The <input type=file> that opened it. */
  backendNodeId: number;
  mode: 'selectSingle' | 'selectMultiple';
  /** The debugger session the input lives in (undefined: the tab's own). */
  sessionId: string | undefined;
}

const open = new WeakMap<TabHandle['state'], OpenFileChooser>();

export const trackFileChoosers: AttachHook = async (tab) => {
  const { state, cdp } = tab;
  cdp.on('Page.fileChooserOpened', (e, sessionId) => {
    if (e.backendNodeId === undefined) return;
    open.set(state, { backendNodeId: e.backendNodeId, mode: e.mode, sessionId });
  });
  cdp.on('Page.frameNavigated', (e, sessionId) => {
    if (e.frame.parentId === undefined && sessionId === undefined) open.delete(state);
  });
  // An older Chrome without the command keeps opening the system dialog; nothing else changes.
  await cdp.send('Page.setInterceptFileChooserDialog', { enabled: true }).catch(() => undefined);
};

/** The tab's open file chooser, if one is waiting for files. */
export function openFileChooser(tab: TabHandle): OpenFileChooser | undefined {
  return open.get(tab.state);
}

/** The chooser was answered (files set, or cancelled). */
export function closeFileChooser(tab: TabHandle): void {
  open.delete(tab.state);
}

/** Answered through its input directly (browser_file_upload with a target): no longer waiting. */
export function inputAnswered(tab: TabHandle, backendNodeId: number): void {
  if (open.get(tab.state)?.backendNodeId === backendNodeId) open.delete(tab.state);
}

/** The Modal state line of an open file chooser. */
export function fileChooserLine(tab: TabHandle): string | undefined {
  const chooser = open.get(tab.state);
  if (chooser === undefined) return undefined;
  const files = chooser.mode === 'selectMultiple' ? 'files' : 'a file';
  return `- [File chooser for ${files}]: call browser_file_upload with paths (no target) to choose, or without paths to cancel.`;
}
