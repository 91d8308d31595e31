import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { Hint } from '../common/hints';
import { quoted } from '../common/text';
import { describeDialog } from '../recorders/dialogs';

export const handleDialog: Handler<'browser_handle_dialog'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { dialog } = tab.state;
  if (dialog === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'No dialog is open in the current tab.',
      Hint.waitSnapshot,
    );
  }
  await tab.cdp.send('Page.handleJavaScriptDialog', {
    accept: args.accept,
    ...(args.promptText === undefined ? {} : { promptText: args.promptText }),
  });
  tab.state.dialog = undefined;
  const verb = args.accept ? 'Accepted' : 'Dismissed';
  const text =
    args.promptText !== undefined && args.accept ? ` with ${quoted(args.promptText)}` : '';
  return textResult(`${verb} the ${describeDialog(dialog)}${text}.`);
};

/** The dialogs area's handlers, by tool name. */
export const dialogsHandlers = {
  browser_handle_dialog: handleDialog,
} satisfies AreaHandlers;
