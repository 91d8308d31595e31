/**
 * An action's report read with its quiet check (earlyLook.ts), against a real headless Chromium:
 * nothing is sent to the page after the check, the look is taken when the DOM went quiet (not
 * before), and every case it does not fit (requests the action started, frames, a page that
 * swallows the event) is read the usual way, with the same result.
 */
import type { ToolResult } from '@browser-agent/protocol';
import { describe, expect, it } from 'vitest';
import { handlers } from '../testing/handlers';
import { fakeContext } from '../testing/fakeContext';
import { commandsSent, openTab, type RealTab } from '../testing/realBrowser';
import { realBrowserWithPages } from '../testing/pageServer';
import { recordNetwork } from '../recorders/networkLog';

const BUTTONS = `<p id="out">Idle</p>
<button onclick="show('Clicked!'); document.title = 'After'">Now</button>
<button onclick="setTimeout(() => show('Late but settled'), 30)">Soon</button>
<button onclick="fetch('/slow').then((r) => r.text()).then(show)">Fetch</button>
<script>const show = (t) => { document.getElementById('out').textContent = t; };</script>`;

const PAGES: Record<string, string> = {
  '/page.html': `<!doctype html><title>Before</title>${BUTTONS}`,
  // The page's own code stops every event the main world dispatches: the look never comes.
  '/swallow.html': `<!doctype html><title>Before</title>${BUTTONS}
<script>EventTarget.prototype.dispatchEvent = function () { return true; };</script>`,
  '/framed.html': `<!doctype html><title>Framed</title><h1>Outer</h1>
<iframe src="/inner.html" title="Inner frame"></iframe>`,
  '/inner.html': `<!doctype html><title>Inner</title>
<button onclick="this.textContent = 'Pressed'">Inner button</button>`,
};

const env = realBrowserWithPages(PAGES, (path, res) => {
  if (path !== '/slow') return false;
  setTimeout(() => res.writeHead(200).end('Fetched and shown'), 100);
  return true;
});

function text(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

async function open(path: string): Promise<RealTab & { ctx: ReturnType<typeof fakeContext> }> {
  const real = await openTab(env.browser);
  // The requests an action started are the tab's network log's (the extension's attach hook).
  // Its Fetch interception holds document responses for the download gate, which is not here.
  await recordNetwork(real.tab);
  await real.tab.cdp.send('Fetch.disable');
  const ctx = fakeContext([real.tab]);
  await handlers.browser_navigate({ url: `${env.origin}${path}` }, ctx);
  return { ...real, ctx };
}

/** The commands sent after the action's quiet check (the main-world check of lateTimers.ts). */
function afterQuietCheck(sent: readonly string[]): string[] {
  const at = sent.findLastIndex((c) => c.includes('__browserAgentLateTimers'));
  expect(at).toBeGreaterThanOrEqual(0);
  return sent.slice(at + 1).filter((c) => !c.startsWith('Runtime.releaseObject'));
}

async function clickButton(ctx: ReturnType<typeof fakeContext>, name: string): Promise<string> {
  const snapshot = text(await handlers.browser_snapshot({}, ctx));
  const ref = snapshot
    .split('\n')
    .find((l) => l.includes(`button "${name}"`))
    ?.match(/\[(e\d+)\]/)?.[1];
  if (ref === undefined) throw new Error(`no button ${name} in:\n${snapshot}`);
  return text(await handlers.browser_click({ ref }, ctx));
}

describe("an action's report, read with its quiet check (#26)", () => {
  it('sends nothing after the check, and reports the new title and the change', async () => {
    const { ctx, tab } = await open('/page.html');
    await handlers.browser_snapshot({}, ctx);
    const sent = commandsSent(tab, 60);
    expect(await clickButton(ctx, 'Now')).toContain('Clicked!');
    const clicked = sent.slice(sent.findIndex((c) => c.startsWith('Input.dispatchMouseEvent')));
    expect(afterQuietCheck(clicked)).toEqual([]);
  });

  it('reads the page as the quiet check left it: the title and the change are the new ones', async () => {
    const { ctx } = await open('/page.html');
    const result = await clickButton(ctx, 'Now');
    expect(result).toContain('- Page Title: "After"');
    expect(result).toMatch(/Clicked!/);
    expect(result).not.toContain('No changes.');
  });

  it('takes the look when the DOM went quiet, after a short timer the click set', async () => {
    const { ctx } = await open('/page.html');
    const result = await clickButton(ctx, 'Soon');
    expect(result).toContain('Late but settled');
  });

  it('reads the page again after the requests the action started answered', async () => {
    const { ctx, tab } = await open('/page.html');
    await handlers.browser_snapshot({}, ctx);
    const sent = commandsSent(tab, 60);
    const result = await clickButton(ctx, 'Fetch');
    expect(result).toContain('Fetched and shown');
    expect(sent).toContain('Page.getNavigationHistory');
  });

  it('reads the page the usual way when the page swallows the quiet event', async () => {
    const { ctx, tab } = await open('/swallow.html');
    await handlers.browser_snapshot({}, ctx);
    const sent = commandsSent(tab, 60);
    const result = await clickButton(ctx, 'Now');
    expect(result).toContain('- Page Title: "After"');
    expect(result).toMatch(/Clicked!/);
    expect(sent).toContain('Page.getNavigationHistory');
  });

  it("lists a framed page's frames: a change inside the iframe is in the diff", async () => {
    const { ctx } = await open('/framed.html');
    const result = await clickButton(ctx, 'Inner button');
    expect(result).toMatch(/button "Pressed"/);
  });
});
