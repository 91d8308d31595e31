import type { Protocol } from 'devtools-protocol';
import type { Handler } from '../handlerContext';

const JPEG_QUALITY = 80;
/** Chrome cannot capture taller than its maximum texture size; longer pages are cut here. */
const MAX_CAPTURE_PX = 16_384;

export const takeScreenshot: Handler<'browser_take_screenshot'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const format = args.type ?? 'png';
  const params: Protocol.Page.CaptureScreenshotRequest = { format };
  if (format === 'jpeg') params.quality = JPEG_QUALITY;
  let description = `Screenshot of the viewport (${format}).`;
  if (args.fullPage === true) {
    const { cssContentSize } = await tab.cdp.send('Page.getLayoutMetrics');
    const width = Math.min(Math.ceil(cssContentSize.width), MAX_CAPTURE_PX);
    const height = Math.min(Math.ceil(cssContentSize.height), MAX_CAPTURE_PX);
    params.captureBeyondViewport = true;
    params.clip = { x: 0, y: 0, width, height, scale: 1 };
    const cut = height < Math.ceil(cssContentSize.height) ? `, cut at ${MAX_CAPTURE_PX} px` : '';
    description = `Full-page screenshot, ${width}×${height} CSS px${cut} (${format}).`;
  }
  const { data } = await tab.cdp.send('Page.captureScreenshot', params);
  return {
    content: [
      { type: 'image', data, mimeType: format === 'png' ? 'image/png' : 'image/jpeg' },
      { type: 'text', text: description },
    ],
  };
};
