import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from '../cdp';
import { elementCdp } from './elementCdp';
import type { Handler, TabHandle } from '../handlerContext';
import { Hint } from './hints';
import { withElement } from './input';
import { keepDrawn } from './keepRunning';
import { within } from './timing';

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
  const tab = await ctx.currentTab();
  const format = args.type ?? 'png';
  const maxDimension = args.maxDimension ?? DEFAULT_MAX_DIMENSION;
  const capture = async (clip: Clip, what: string) => {
    const scale = Math.min(1, maxDimension / Math.max(clip.width, clip.height, 1));
    const params: Protocol.Page.CaptureScreenshotRequest = {
      format,
      clip: { ...clip, scale },
      captureBeyondViewport: true,
    };
    if (format === 'jpeg') params.quality = JPEG_QUALITY;
    const data = await captureDrawn(tab.cdp, params);
    const size = `${Math.round(clip.width * scale)}×${Math.round(clip.height * scale)} px`;
    const scaled =
      scale < 1 ? `, downscaled from ${Math.round(clip.width)}×${Math.round(clip.height)}` : '';
    return {
      content: [
        {
          type: 'image' as const,
          data,
          mimeType: format === 'png' ? ('image/png' as const) : ('image/jpeg' as const),
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
      const clip = await elementClip(tab, elementCdp(tab, element), backendNodeId);
      return capture(clip, element.label);
    });
  }
  const { cssContentSize, cssVisualViewport } = await tab.cdp.send('Page.getLayoutMetrics');
  if (args.fullPage === true) {
    const width = Math.min(Math.ceil(cssContentSize.width), MAX_CAPTURE_PX);
    const height = Math.min(Math.ceil(cssContentSize.height), MAX_CAPTURE_PX);
    const cut = height < Math.ceil(cssContentSize.height) ? ` (cut at ${MAX_CAPTURE_PX} px)` : '';
    return capture({ x: 0, y: 0, width, height, scale: 1 }, `the full page${cut}`);
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
  );
};

/** Captures once the tab is drawn; keepDrawn is normally in place since attach already. */
async function captureDrawn(
  cdp: CdpClient,
  params: Protocol.Page.CaptureScreenshotRequest,
): Promise<string> {
  await keepDrawn(cdp);
  const shot = await within(cdp.send('Page.captureScreenshot', params), CAPTURE_LIMIT_MS);
  if (shot === undefined) {
    throw new BridgeError(
      ErrorCode.TIMEOUT,
      `Chrome drew no frame of the tab for the screenshot within ${CAPTURE_LIMIT_MS} ms.`,
      Hint.notPainted,
    );
  }
  return shot.data;
}

/** The element's border box in page coordinates. */
async function elementClip(tab: TabHandle, cdp: CdpClient, backendNodeId: number): Promise<Clip> {
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
  return {
    x: x + cssVisualViewport.pageX,
    y: y + cssVisualViewport.pageY,
    width: Math.max(1, Math.max(...xs) - x),
    height: Math.max(1, Math.max(...ys) - y),
    scale: 1,
  };
}
