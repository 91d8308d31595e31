/**
 * Content tools: the page's HTML, its text and a screenshot.
 *
 * HTML out of the page, with secrets removed before it leaves: the clone drops the values of
 * password, payment-card and one-time-code fields, and scripts, styles and comments.
 * browser_get_html returns it capped; browser_get_text sends it to the MCP server, which
 * turns it into Markdown (the service worker has no DOM parser).
 */
import {
  BridgeError,
  ErrorCode,
  textResult,
  type PageHtml,
  type SecretPrints,
} from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { Hint } from '../common/hints';
import { capText, oneLine, untrustedSection } from '../common/text';
import { within } from '../common/timing';
import { elementCdp } from '../elements/elementCdp';
import { withElement } from '../elements/withElement';
import type { ResolvedElement } from '../elements/resolveRef';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { keepDrawn } from '../loading/keepRunning';
import { pageInfo } from '../loading/pageInfo';
import { SECRET_FIELD_FUNCTION } from '../../shared/secretKind';
import { withSecretsMasked } from '../outline/secretMask';
import { callInFrame } from '../page/world';

const DEFAULT_HTML_CHARS = 50_000;
/** What browser_get_text hands to the server; readability needs the page, not a fragment. */
const MAX_TEXT_SOURCE_CHARS = 2_000_000;

// Runs on the element (or document.documentElement). Serialises a sanitised clone.
const CLEAN_HTML_FUNCTION = `function (forText) {
  const secret = ${SECRET_FIELD_FUNCTION};
  const clone = this.cloneNode(true);
  // The clone lists its elements in the original's order; the rule is judged on the originals.
  const originals = [this, ...this.querySelectorAll('*')];
  const all = [clone, ...clone.querySelectorAll('*')];
  all.forEach((el, i) => {
    if (secret(originals[i])) { el.removeAttribute('value'); el.setAttribute('value', '[hidden]'); }
    else if (el.localName === 'input' && !forText && el.type !== 'file') el.setAttribute('value', el.value === undefined ? '' : el.value);
  });
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

/**
 * The document element as seen from the main frame's page-model world, so the clean-up runs
 * there: the page cannot patch what it calls, and the model's memory of fields that were once
 * passwords (a "show password" toggle) counts. The main world is the fallback.
 */
async function documentObjectId(tab: TabHandle): Promise<string> {
  const { cdp } = tab;
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const world = await callInFrame(
    cdp,
    tab.state,
    { sessionId: undefined, frameId: frameTree.frame.id },
    'maskSecrets(false)',
  ).catch(() => undefined);
  const { result } = await cdp.send('Runtime.evaluate', {
    expression: 'document.documentElement',
    ...(world === undefined ? {} : { contextId: world.world.contextId }),
  });
  return result.objectId ?? '';
}

/** The element in its frame's page-model world (see documentObjectId), else the main world's. */
async function modelWorldObject(tab: TabHandle, element: ResolvedElement): Promise<string> {
  const { object } = await elementCdp(tab, element)
    .send('DOM.resolveNode', {
      backendNodeId: element.entry.backendNodeId,
      executionContextId: element.entry.world.contextId,
    })
    .catch(() => ({ object: { objectId: element.objectId } }));
  return object.objectId ?? element.objectId;
}

const hasTarget = (args: { ref?: string; selector?: string; role?: string }): boolean =>
  args.ref !== undefined || args.selector !== undefined || args.role !== undefined;

export const getHtml: Handler<'browser_get_html'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const maxChars = args.maxChars ?? DEFAULT_HTML_CHARS;
  if (hasTarget(args)) {
    return withElement(tab, args, async (element) => {
      const html = await cleanHtml(
        elementCdp(tab, element),
        await modelWorldObject(tab, element),
        false,
      );
      return textResult(
        untrustedSection(`HTML of ${element.label}`, capText(html, maxChars), 'html'),
      );
    });
  }
  const html = await cleanHtml(tab.cdp, await documentObjectId(tab), false);
  return textResult(untrustedSection('Page HTML', capText(html, maxChars), 'html'));
};

export const getText: Handler<'browser_get_text'> = async (_args, ctx) => {
  const tab = await ctx.currentTab();
  const [html, info] = await Promise.all([
    cleanHtml(tab.cdp, await documentObjectId(tab), true),
    pageInfo(tab.cdp),
  ]);
  const page: PageHtml = {
    url: info.url,
    title: info.title,
    html: html.slice(0, MAX_TEXT_SOURCE_CHARS),
    truncated: html.length > MAX_TEXT_SOURCE_CHARS,
  };
  // The server turns the HTML into Markdown in place of this line (it has a DOM library).
  return {
    content: [{ type: 'text', text: `Read the HTML of ${oneLine(page.url, 200)}.` }],
    serverData: { pageHtml: page },
  };
};

/** For jpeg and webp. */
const JPEG_QUALITY = 80;
/** Chrome cannot capture taller than its maximum texture size; longer pages are cut here. */
const MAX_CAPTURE_PX = 16_384;
/** Models downscale larger images anyway; sending them only costs tokens and time. */
const DEFAULT_MAX_DIMENSION = 1568;
/**
 * Chrome answers a capture of a tab it does not draw only once the tab is drawn again, if ever.
 * A painted page captures in well under this even when large, so past it the call fails instead.
 */
const CAPTURE_LIMIT_MS = 10_000;
type Clip = Protocol.Page.Viewport;

export const takeScreenshot: Handler<'browser_take_screenshot'> = async (args, ctx) => {
  const tab =
    ctx.settings?.startsWithBlankTab === true ? await ctx.ensureTab() : await ctx.currentTab();
  const format = args.type ?? 'png';
  const maxDimension = args.maxDimension ?? DEFAULT_MAX_DIMENSION;
  // Chrome captures in device pixels; 'css' (the default, as in Playwright MCP) undoes the ratio.
  const ratio = await devicePixelRatio(tab);
  const perCss = args.scale === 'device' ? ratio : 1;
  // Chrome resizes the view for a capture beyond the viewport; a clip inside it is taken as shown
  // (Playwright's rule). The white first captures were the screencast's restart (keepDrawn).
  const capture = async (clip: Clip, what: string, beyondViewport: boolean) => {
    const scale = Math.min(
      1,
      maxDimension / Math.max(clip.width * perCss, clip.height * perCss, 1),
    );
    const params: Protocol.Page.CaptureScreenshotRequest = {
      format,
      clip: { ...clip, scale: (scale * perCss) / ratio },
      captureBeyondViewport: beyondViewport,
    };
    if (format !== 'png') params.quality = JPEG_QUALITY;
    const data = await captureDrawn(tab, params, ctx.settings?.secretPrints);
    const [w, h] = [clip.width * perCss, clip.height * perCss];
    const size = `${Math.round(w * scale)}×${Math.round(h * scale)} px`;
    const scaled = scale < 1 ? `, downscaled from ${Math.round(w)}×${Math.round(h)}` : '';
    return {
      content: [
        {
          type: 'image' as const,
          data,
          mimeType: `image/${format}` as const,
        },
        { type: 'text' as const, text: `Screenshot of ${what}, ${size}${scaled} (${format}).` },
      ],
    };
  };
  if (args.ref !== undefined || args.selector !== undefined || args.role !== undefined) {
    return withElement(tab, args, async (element) => {
      const backendNodeId = element.entry.backendNodeId;
      await elementCdp(tab, element)
        .send('DOM.scrollIntoViewIfNeeded', { backendNodeId })
        .catch(() => undefined);
      const { clip, inside } = await elementClip(tab, elementCdp(tab, element), backendNodeId);
      return capture(clip, element.label, !inside);
    });
  }
  const { cssContentSize, cssVisualViewport } = await tab.cdp.send('Page.getLayoutMetrics');
  if (args.fullPage === true) {
    const width = Math.min(Math.ceil(cssContentSize.width), MAX_CAPTURE_PX);
    const height = Math.min(Math.ceil(cssContentSize.height), MAX_CAPTURE_PX);
    const cut = height < Math.ceil(cssContentSize.height) ? ` (cut at ${MAX_CAPTURE_PX} px)` : '';
    return capture({ x: 0, y: 0, width, height, scale: 1 }, `the full page${cut}`, true);
  }
  return capture(
    {
      x: cssVisualViewport.pageX,
      y: cssVisualViewport.pageY,
      width: cssVisualViewport.clientWidth,
      height: cssVisualViewport.clientHeight,
      scale: 1,
    },
    'the viewport',
    false,
  );
};

/**
 * The tab's device pixel ratio, read in an isolated world of the main frame: the page's own
 * `devicePixelRatio` can be redefined by the page. 1 when it cannot be read.
 */
async function devicePixelRatio(tab: TabHandle): Promise<number> {
  try {
    const { frameTree } = await tab.cdp.send('Page.getFrameTree');
    const { executionContextId } = await tab.cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'browser-agent-pixels',
      grantUniveralAccess: false,
    });
    const answer = await tab.cdp.send('Runtime.evaluate', {
      expression: 'window.devicePixelRatio',
      contextId: executionContextId,
      returnByValue: true,
    });
    const value: unknown = answer.result.value;
    return typeof value === 'number' && Number.isFinite(value) && value > 0
      ? Math.min(value, 10)
      : 1;
  } catch {
    return 1;
  }
}

/** Captures once the tab is drawn; the screencast of keepDrawn normally runs since the attach. */
async function captureDrawn(
  tab: TabHandle,
  params: Protocol.Page.CaptureScreenshotRequest,
  prints: SecretPrints | undefined,
): Promise<string> {
  const cdp = tab.cdp;
  await keepDrawn(tab);
  const shot = await withSecretsMasked(
    tab,
    () => within(cdp.send('Page.captureScreenshot', params), CAPTURE_LIMIT_MS),
    prints,
  );
  if (shot === undefined) {
    // The screencast may have stopped under us: the next capture starts it again.
    tab.state.drawn = false;
    throw new BridgeError(
      ErrorCode.TIMEOUT,
      `Chrome drew no frame of the tab for the screenshot within ${CAPTURE_LIMIT_MS} ms.`,
      Hint.notPainted,
    );
  }
  return shot.data;
}

/** The element's border box in page coordinates, and whether it lies inside the viewport. */
async function elementClip(
  tab: TabHandle,
  cdp: CdpClient,
  backendNodeId: number,
): Promise<{ clip: Clip; inside: boolean }> {
  const [{ model }, { cssVisualViewport }] = await Promise.all([
    cdp.send('DOM.getBoxModel', { backendNodeId }),
    tab.cdp.send('Page.getLayoutMetrics'),
  ]);
  const xs = [model.border[0], model.border[2], model.border[4], model.border[6]].map(
    (v) => v ?? 0,
  );
  const ys = [model.border[1], model.border[3], model.border[5], model.border[7]].map(
    (v) => v ?? 0,
  );
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  const width = Math.max(1, Math.max(...xs) - x);
  const height = Math.max(1, Math.max(...ys) - y);
  const inside =
    x >= 0 &&
    y >= 0 &&
    x + width <= cssVisualViewport.clientWidth &&
    y + height <= cssVisualViewport.clientHeight;
  const clip = { x: x + cssVisualViewport.pageX, y: y + cssVisualViewport.pageY, width, height };
  return { clip: { ...clip, scale: 1 }, inside };
}

/** The content area's handlers, by tool name. */
export const contentHandlers = {
  browser_take_screenshot: takeScreenshot,
  browser_get_text: getText,
  browser_get_html: getHtml,
} satisfies AreaHandlers;
