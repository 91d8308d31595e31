/** PDF area's handler: the page printed to PDF, saved by the MCP server (serverStep saveResultBytes). */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { oneLine } from '../common/text';
import { withSecretsMasked } from '../outline/secretMask';

/** A frame carries at most 16 MiB; base64 grows the bytes by a third. */
const MAX_PDF_BASE64_CHARS = 15 * 1024 * 1024;

export const pdfSave: Handler<'browser_pdf_save'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  // A PDF is a file the agent can read like a screenshot's pixels: secret fields and shown
  // --secrets values print as discs (transparent ink would stay in its text layer).
  const { data } = await withSecretsMasked(
    tab,
    () =>
      tab.cdp.send('Page.printToPDF', { printBackground: true, transferMode: 'ReturnAsBase64' }),
    ctx.settings?.secretPrints,
    true,
  ).catch((err: unknown) => {
    throw new BridgeError(
      ErrorCode.INTERNAL,
      `The page could not be printed to PDF: ${err instanceof Error ? oneLine(err.message, 200) : 'unknown error'}.`,
      'Chromium prints to PDF in headless mode (--launch --headless); a headed window may refuse.',
    );
  });
  if (data.length > MAX_PDF_BASE64_CHARS) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `The PDF is too large to pass over the bridge (${Math.round((data.length * 3) / 4 / 1024 / 1024)} MiB).`,
      'Save a shorter page, or print it from the browser.',
    );
  }
  return {
    content: [{ type: 'text', text: 'Printed the page to PDF.' }],
    serverData: { files: [{ data, ext: 'pdf', prefix: 'page', label: 'Page saved as PDF' }] },
  };
};

/** The PDF area's handlers, by tool name. */
export const pdfHandlers = {
  browser_pdf_save: pdfSave,
} satisfies AreaHandlers;
