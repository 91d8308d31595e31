/**
 * What a session's settings make its tabs look like, applied on every attach (worker.ts): the
 * viewport, and with `--device` / `--mobile` the device's pixel ratio, mobile layout, touch and
 * user agent; with `--init-script` a script that runs in every new document before the page's
 * own. All of it is per tab (Emulation.* and Page.addScriptToEvaluateOnNewDocument on the tab's
 * debugger session): the window, and the user's other tabs, stay as they are.
 */
import type { SessionSettings } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp.js';

export async function applySessionEmulation(
  cdp: CdpClient,
  settings: SessionSettings | undefined,
): Promise<void> {
  const viewport = settings?.viewport;
  const device = settings?.emulation;
  if (viewport || device) {
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      // 0 keeps the window's own size where no viewport is set.
      width: viewport?.width ?? 0,
      height: viewport?.height ?? 0,
      deviceScaleFactor: device?.deviceScaleFactor ?? 0,
      mobile: device?.mobile ?? false,
    });
  }
  if (device?.touch !== undefined) {
    await cdp.send('Emulation.setTouchEmulationEnabled', {
      enabled: device.touch,
      ...(device.touch ? { maxTouchPoints: 5 } : {}),
    });
  }
  if (device?.userAgent !== undefined) {
    await cdp.send('Emulation.setUserAgentOverride', { userAgent: device.userAgent });
  }
  if (settings?.initScript !== undefined) {
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
      source: settings.initScript,
      runImmediately: false,
    });
  }
}
