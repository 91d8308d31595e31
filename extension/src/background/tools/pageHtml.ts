/**
 * HTML out of the page, with secrets removed before it leaves: the clone drops the values of
 * password, payment-card and one-time-code fields, and scripts, styles and comments.
 * browser_get_html returns it capped; browser_get_text sends it to the MCP server, which
 * turns it into Markdown (the service worker has no DOM parser).
 */
import { PAGE_HTML_MARKER, textResult, type PageHtml } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import { elementCdp } from './elementCdp';
import type { Handler } from '../handlerContext';
import { withElement } from './input';
import { pageInfo } from './pageInfo';
import { capText, untrustedSection } from './text';

const DEFAULT_HTML_CHARS = 50_000;
/** What browser_get_text hands to the server; readability needs the page, not a fragment. */
const MAX_TEXT_SOURCE_CHARS = 2_000_000;

// Runs on the element (or document.documentElement). Serialises a sanitised clone.
const CLEAN_HTML_FUNCTION = `function (forText) {
  const secret = (el) => el.localName === 'input' && (el.type === 'password' || /^(cc-|one-time-code)/.test(el.getAttribute('autocomplete') || ''));
  const clone = this.cloneNode(true);
  const all = [clone, ...clone.querySelectorAll('*')];
  for (const el of all) {
    if (secret(el)) { el.removeAttribute('value'); el.setAttribute('value', '[hidden]'); }
    else if (el.localName === 'input' && !forText && el.type !== 'file') el.setAttribute('value', el.value === undefined ? '' : el.value);
  }
  // Live values of non-secret fields were copied above; secret ones never are.
  const drop = forText ? 'script,style,noscript,template,svg,iframe' : 'script,style';
  for (const el of clone.querySelectorAll(drop)) el.remove();
  const walker = document.createTreeWalker(clone, NodeFilter.SHOW_COMMENT);
  const comments = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.remove();
  return clone.outerHTML;
}`;

async function cleanHtml(cdp: CdpClient, objectId: string, forText: boolean): Promise<string> {
  const { result } = await cdp.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: CLEAN_HTML_FUNCTION,
    arguments: [{ value: forText }],
    returnByValue: true,
  });
  return typeof result.value === 'string' ? result.value : '';
}

async function documentObjectId(cdp: CdpClient): Promise<string> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.documentElement' });
  return result.objectId ?? '';
}

const hasTarget = (args: { ref?: string; selector?: string; role?: string }): boolean =>
  args.ref !== undefined || args.selector !== undefined || args.role !== undefined;

export const getHtml: Handler<'browser_get_html'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const maxChars = args.maxChars ?? DEFAULT_HTML_CHARS;
  if (hasTarget(args)) {
    return withElement(tab, args, async (element) => {
      const html = await cleanHtml(elementCdp(tab, element), element.objectId, false);
      return textResult(
        untrustedSection(`HTML of ${element.label}`, capText(html, maxChars), 'html'),
      );
    });
  }
  const html = await cleanHtml(tab.cdp, await documentObjectId(tab.cdp), false);
  return textResult(untrustedSection('Page HTML', capText(html, maxChars), 'html'));
};

export const getText: Handler<'browser_get_text'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  const [html, info] = await Promise.all([
    cleanHtml(tab.cdp, await documentObjectId(tab.cdp), true),
    pageInfo(tab.cdp),
  ]);
  const page: PageHtml = {
    url: info.url,
    title: info.title,
    html: html.slice(0, MAX_TEXT_SOURCE_CHARS),
    truncated: html.length > MAX_TEXT_SOURCE_CHARS,
  };
  return textResult(`${PAGE_HTML_MARKER}${JSON.stringify(page)}`);
};
