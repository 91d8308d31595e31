/**
 * JavaScript dialogs never hang a call. The attach hook records the tab's open dialog; input
 * tools refuse to act while one is open (DIALOG_OPEN); every tool result lists it as a modal
 * state until browser_handle_dialog closes it.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { AttachHook, OpenDialog, TabHandle } from '../tabStates';
import { Hint } from '../common/hints';
import { oneLine, quoted } from '../common/text';

export const trackDialogs: AttachHook = (tab) => {
  tab.cdp.on('Page.javascriptDialogOpening', (e, sessionId) => {
    if (sessionId !== undefined) return;
    tab.state.dialog = { type: e.type, message: e.message, defaultPrompt: e.defaultPrompt ?? '' };
  });
  tab.cdp.on('Page.javascriptDialogClosed', (_e, sessionId) => {
    if (sessionId !== undefined) return;
    tab.state.dialog = undefined;
  });
  // A new document has no dialog; this also clears one the page closed by navigating away.
  tab.cdp.on('Page.frameNavigated', (e) => {
    if (e.frame.parentId === undefined) tab.state.dialog = undefined;
  });
};

export function describeDialog(dialog: OpenDialog): string {
  const prompt =
    dialog.type === 'prompt' && dialog.defaultPrompt !== ''
      ? ` (default ${quoted(dialog.defaultPrompt)})`
      : '';
  return `${dialog.type} dialog ${quoted(oneLine(dialog.message, 1000))}${prompt}`;
}

/** Refuses input while a dialog blocks the page. */
export function assertNoDialog(tab: TabHandle): void {
  const { dialog } = tab.state;
  if (dialog === undefined) return;
  throw new BridgeError(
    ErrorCode.DIALOG_OPEN,
    `A ${describeDialog(dialog)} is open and blocks the page.`,
    Hint.dialogOpen,
  );
}

/** The section every tool result ends with while a dialog is open. */
export function modalStateSection(tab: TabHandle): string | undefined {
  const { dialog } = tab.state;
  if (dialog === undefined) return undefined;
  return `### Modal state\n- [${describeDialog(dialog)}]: call browser_handle_dialog to accept or dismiss it.`;
}

/** Resolves once a dialog is open on the tab (at once if one already is); dispose stops it. */
export function dialogOpened(tab: TabHandle): { opened: Promise<void>; dispose: () => void } {
  let off = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    if (tab.state.dialog !== undefined) {
      resolve();
      return;
    }
    off = tab.cdp.on('Page.javascriptDialogOpening', (_e, sessionId) => {
      if (sessionId === undefined) resolve();
    });
  });
  return { opened, dispose: () => off() };
}
