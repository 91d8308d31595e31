/**
 * The handlers against a real headless Chromium, through a Playwright CDP session standing in for
 * chrome.debugger. Pages come from a local HTTP server on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolResult } from '@browser-agent/protocol';
import { describe, expect, it } from 'vitest';
import { handlers } from '../testing/handlers';
import { caught } from '../testing/caught';
import { fakeContext } from '../testing/fakeContext';
import { commandsSent, openTab, type RealTab } from '../testing/realBrowser';
import { realBrowserWithPages } from '../testing/pageServer';

const PAGES: Record<string, string> = {
  '/form.html': `<!doctype html><title>Sign up</title>
<h1>Sign up</h1>
<form id="f">
  <label for="name">Name</label> <input id="name" value="Bob">
  <label>Password <input type="password" id="pw" value="hunter2"></label>
  <label><input type="checkbox" id="agree" checked> Agree</label>
  <button type="button" id="go">Click me</button>
  <button type="button" disabled>Later</button>
  <a href="/next.html">Docs</a>
</form>
<p id="status">Idle</p>
<script>
  const status = document.getElementById('status');
  document.getElementById('go').onclick = () => { status.textContent = 'Clicked!'; };
  document.getElementById('f').onsubmit = (e) => {
    e.preventDefault();
    status.textContent = 'Submitted ' + document.getElementById('name').value;
  };
</script>`,
  '/next.html': '<!doctype html><title>Next</title><h1>Next page</h1>',
  '/framed.html': `<!doctype html><title>Framed</title><h1>Outer</h1>
<iframe src="/inner.html" style="margin: 40px; border: 5px solid; padding: 7px" title="Inner frame"></iframe>`,
  '/inner.html': `<!doctype html><title>Inner</title><p style="height: 60px">Spacer</p>
<button onclick="this.textContent = 'Pressed'">Inner button</button>`,
  '/search.html': `<!doctype html><title>Search</title>
<form onsubmit="event.preventDefault(); document.title = 'Searched ' + this.q.value"><input name="q" aria-label="Query"></form>`,
  '/delayed.html': `<!doctype html><title>Delayed</title><p id="msg">Loading…</p>
<script>
  window.startLoading = () => setTimeout(() => { document.getElementById('msg').textContent = 'Ready now'; }, 800);
</script>`,
};

const env = realBrowserWithPages(PAGES);

function text(result: ToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
}

/** A fresh page with the handlers' context over it, already navigated to path. */
async function open(path: string): Promise<RealTab & { ctx: ReturnType<typeof fakeContext> }> {
  const real = await openTab(env.browser);
  const ctx = fakeContext([real.tab]);
  await handlers.browser_navigate({ url: `${env.origin}${path}` }, ctx);
  return { ...real, ctx };
}

/** A URL on a port that was just free, so connecting to it is refused. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

/** The ref the latest snapshot gave the line that contains `fragment`. */
function refOf(snapshot: string, fragment: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(fragment));
  const ref = line?.match(/\[(e\d+)\]/)?.[1];
  if (ref === undefined) throw new Error(`no ref for ${fragment} in:\n${snapshot}`);
  return ref;
}

describe('browser_snapshot', () => {
  it('shows the form as an outline with refs, states and values, never the password', async () => {
    const { ctx } = await open('/form.html');
    const snapshot = text(await handlers.browser_snapshot({}, ctx));
    expect(snapshot).toBe(`- Page URL: ${env.origin}/form.html
- Page Title: "Sign up"
- Snapshot generation: 1
### Page snapshot (untrusted page content)
\`\`\`yaml
- heading "Sign up" [level=1] [e1]
- form:
  - text: Name
  - textbox "Name" [e2]: Bob
  - textbox "Password" [value hidden] [e3]
  - checkbox "Agree" [checked] [e4]
  - button "Click me" [e5]
  - button "Later" [disabled] [e6]
  - link "Docs" [e7] [url=/next.html]
- paragraph: Idle
\`\`\``);
    expect(snapshot).not.toContain('hunter2');
  });

  it('keeps refs of the same elements across snapshots and numbers new ones after them', async () => {
    const { ctx, page } = await open('/form.html');
    const first = text(await handlers.browser_snapshot({}, ctx));
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('afterbegin', '<button>New</button>');
    });
    const second = text(await handlers.browser_snapshot({}, ctx));
    expect(refOf(second, 'button "Click me"')).toBe(refOf(first, 'button "Click me"'));
    expect(refOf(second, 'textbox "Name"')).toBe(refOf(first, 'textbox "Name"'));
    expect(refOf(second, 'button "New"')).toBe('e8');
  });
});

describe('browser_click', () => {
  // How long settling takes is the bench's business (docs/benchmarks.md); that a static page
  // costs one quiet check, never a fixed wait, is settle.test.ts's.
  it('clicks a button, the page reacts, and the result says nothing navigated', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    const result = text(await handlers.browser_click({ ref }, ctx));
    expect(await page.textContent('#status')).toBe('Clicked!');
    expect(result).toContain(`Clicked button "Click me" [${ref}].`);
    expect(result).toContain('No navigation.');
  });

  it("looks where to click with the element's check: no quads or hit test after it (#26)", async () => {
    const { ctx, tab, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    const sent = commandsSent(tab);
    await handlers.browser_click({ ref }, ctx);
    expect(await page.textContent('#status')).toBe('Clicked!');
    expect(sent).not.toContain('DOM.getContentQuads');
    expect(sent).not.toContain('Runtime.callFunctionOn');
  });

  it('clicks the right spot on a page zoomed out by a mobile viewport (its page scale is not 1)', async () => {
    const { ctx, tab, page } = await open('/form.html');
    // No viewport meta: a mobile layout viewport is 980 px wide, shown scaled down.
    await tab.cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 360,
      height: 640,
      deviceScaleFactor: 2,
      mobile: true,
    });
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'afterbegin',
        '<div style="width: 900px; height: 300px"></div><button type="button" id="far" style="margin-left: 700px" onclick="this.textContent = \'Pressed\'">Far</button>',
      );
    });
    expect(await page.evaluate(() => window.visualViewport?.scale)).toBeLessThan(1);
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Far"');
    await handlers.browser_click({ ref }, ctx);
    expect(await page.textContent('#far')).toBe('Pressed');
  });

  it('clicks a button below the fold: the look finds it off screen, so it is scrolled to', async () => {
    const { ctx, page } = await open('/form.html');
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('afterbegin', '<div style="height: 3000px"></div>');
    });
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    await handlers.browser_click({ ref }, ctx);
    expect(await page.textContent('#status')).toBe('Clicked!');
  });

  it('double-clicks', async () => {
    const { ctx, page } = await open('/form.html');
    await page.evaluate(() => {
      const go = document.getElementById('go');
      go?.addEventListener('dblclick', () => {
        go.textContent = 'Twice';
      });
    });
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    const result = text(await handlers.browser_click({ ref, doubleClick: true }, ctx));
    expect(result).toContain('Double-clicked button "Click me"');
    expect(await page.textContent('#go')).toBe('Twice');
  });

  it('follows a link, reports the navigation, and navigate_back returns', async () => {
    const { ctx } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'link "Docs"');
    const result = text(await handlers.browser_click({ ref }, ctx));
    expect(result).toContain('The page navigated.');
    expect(result).toContain(`- Page URL: ${env.origin}/next.html`);
    expect(result).toContain('- Page Title: "Next"');
    const back = text(await handlers.browser_navigate_back({}, ctx));
    expect(back).toContain(`- Page URL: ${env.origin}/form.html`);
  });

  it('shows and clicks inside a same-origin iframe', async () => {
    const { ctx, page } = await open('/framed.html');
    const snapshot = text(await handlers.browser_snapshot({}, ctx));
    expect(snapshot).toMatch(
      /- Iframe "Inner frame" \[e\d+\]:\n {2}- paragraph: Spacer\n {2}- button "Inner button" \[e\d+\]\n/,
    );
    await handlers.browser_click({ ref: refOf(snapshot, 'button "Inner button"') }, ctx);
    expect(await page.frames()[1]?.textContent('button')).toBe('Pressed');
  });

  it('refuses a ref whose element was replaced, even by an identical one', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    await page.evaluate(() => {
      const old = document.getElementById('go');
      old?.replaceWith(old.cloneNode(true));
    });
    await expect(handlers.browser_click({ ref }, ctx)).rejects.toMatchObject({
      code: 'STALE_REF',
      hint: 'Call browser_snapshot to get fresh refs.',
    });
    expect(await page.textContent('#status')).toBe('Idle');
    const fresh = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    expect(fresh).not.toBe(ref);
  });

  it('refuses a ref whose element now has another name', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'button "Click me"');
    await page.evaluate(() => {
      const go = document.getElementById('go');
      if (go) go.textContent = 'Delete everything';
    });
    await expect(handlers.browser_click({ ref }, ctx)).rejects.toMatchObject({ code: 'STALE_REF' });
  });

  it('refuses to click an element that is hidden or covered', async () => {
    const { ctx, page } = await open('/form.html');
    const snapshot = text(await handlers.browser_snapshot({}, ctx));
    await page.evaluate(() => {
      document.getElementById('agree')?.style.setProperty('display', 'none');
      document.body.insertAdjacentHTML(
        'beforeend',
        '<div style="position:fixed;inset:0;background:white" id="overlay"></div>',
      );
    });
    await expect(
      handlers.browser_click({ ref: refOf(snapshot, 'checkbox "Agree"') }, ctx),
    ).rejects.toMatchObject({
      code: 'NOT_VISIBLE',
    });
    const covered = await caught(
      handlers.browser_click({ ref: refOf(snapshot, 'button "Click me"') }, ctx),
    );
    expect(covered.code).toBe('NOT_VISIBLE');
    expect(covered.message).toContain('is covered by another element (<div#overlay>)');
    expect(await page.textContent('#status')).toBe('Idle');
  });
});

describe('browser_type', () => {
  it('replaces the value of a labelled input', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Name"');
    const result = text(await handlers.browser_type({ ref, text: 'Alice' }, ctx));
    expect(await page.inputValue('#name')).toBe('Alice');
    expect(result).toContain(`Typed "Alice" into textbox "Name" [${ref}].`);
    expect(text(await handlers.browser_snapshot({}, ctx))).toContain(
      `- textbox "Name" [${ref}] [active]: Alice`,
    );
  });

  it('submits the form with Enter', async () => {
    const { ctx } = await open('/search.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Query"');
    const result = text(await handlers.browser_type({ ref, text: 'cats', submit: true }, ctx));
    expect(result).toContain(`Typed "cats" into textbox "Query" [${ref}] and pressed Enter.`);
    expect(result).toContain('- Page Title: "Searched cats"');
  });

  it('types slowly with key events the page can hear', async () => {
    const { ctx, page } = await open('/form.html');
    await page.evaluate(() => {
      const keys: string[] = [];
      Object.assign(window, { keys });
      document.getElementById('name')?.addEventListener('keydown', (e) => keys.push(e.key));
    });
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Name"');
    await handlers.browser_type({ ref, text: 'Zoë 7', slowly: true }, ctx);
    expect(await page.inputValue('#name')).toBe('Zoë 7');
    expect(await page.evaluate(() => (window as unknown as { keys: string[] }).keys)).toEqual([
      'Z',
      'o',
      'ë',
      ' ',
      '7',
    ]);
  });

  it('never echoes what was typed into a password field', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Password"');
    const result = text(await handlers.browser_type({ ref, text: 'correct horse' }, ctx));
    expect(await page.inputValue('#pw')).toBe('correct horse');
    expect(result).toContain('Typed 13 characters into textbox "Password"');
    expect(result).not.toContain('correct horse');
    expect(text(await handlers.browser_snapshot({}, ctx))).not.toContain('correct horse');
  });

  it('clears a field when given empty text', async () => {
    const { ctx, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Name"');
    await handlers.browser_type({ ref, text: '' }, ctx);
    expect(await page.inputValue('#name')).toBe('');
  });

  it('types into a contenteditable element', async () => {
    const { ctx, page } = await open('/form.html');
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<div contenteditable aria-label="Notes">old</div>',
      );
    });
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), '"Notes"');
    await handlers.browser_type({ ref, text: 'new notes' }, ctx);
    expect(await page.textContent('[contenteditable]')).toBe('new notes');
  });

  it("focuses and selects the field with the element's check: no call on the element after it (#26)", async () => {
    const { ctx, tab, page } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Name"');
    const sent = commandsSent(tab);
    await handlers.browser_type({ ref, text: 'Alice' }, ctx);
    expect(await page.inputValue('#name')).toBe('Alice');
    expect(sent).not.toContain('Runtime.callFunctionOn');
    expect(sent).not.toContain('DOM.focus');
  });

  it('never focuses or selects a field whose ref went stale or hidden', async () => {
    const { ctx, page } = await open('/form.html');
    const snapshot = text(await handlers.browser_snapshot({}, ctx));
    const name = refOf(snapshot, 'textbox "Name"');
    const password = refOf(snapshot, 'textbox "Password"');
    const fields = () =>
      page.evaluate(() =>
        ['name', 'pw'].map((id) => {
          const el = document.getElementById(id) as HTMLInputElement;
          return [document.activeElement === el, el.value, el.selectionStart, el.selectionEnd];
        }),
      );
    await page.evaluate(() => {
      const label = document.querySelector('label[for="name"]');
      if (label) label.textContent = 'Card number';
      document.getElementById('pw')?.style.setProperty('visibility', 'hidden');
    });
    const before = await fields();
    await expect(handlers.browser_type({ ref: name, text: 'x' }, ctx)).rejects.toMatchObject({
      code: 'STALE_REF',
    });
    await expect(handlers.browser_type({ ref: password, text: 'x' }, ctx)).rejects.toMatchObject({
      code: 'NOT_VISIBLE',
    });
    expect(await fields()).toEqual(before);
    expect(before.map((f) => f[0])).toEqual([false, false]);
  });

  it('refuses to type into a checkbox', async () => {
    const { ctx } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'checkbox "Agree"');
    await expect(handlers.browser_type({ ref, text: 'x' }, ctx)).rejects.toMatchObject({
      code: 'NOT_EDITABLE',
    });
  });
});

describe('browser_navigate', () => {
  it('reports a failed navigation with the URL and the network error', async () => {
    const { ctx } = await open('/form.html');
    const closed = await closedPortUrl();
    await expect(handlers.browser_navigate({ url: closed }, ctx)).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
      message: `Navigation to ${closed} failed: net::ERR_CONNECTION_REFUSED.`,
      hint: expect.stringContaining('is the dev server running on that port?') as unknown,
    });
  });

  it('opens about:blank and data: URLs', async () => {
    const { ctx, page } = await open('/form.html');
    await handlers.browser_navigate({ url: 'about:blank' }, ctx);
    expect(page.url()).toBe('about:blank');
    const result = text(
      await handlers.browser_navigate(
        { url: 'data:text/html,<title>Inline</title><p>hi</p>' },
        ctx,
      ),
    );
    expect(result).toContain('- Page Title: "Inline"');
  });

  it('returns the loaded page and refuses Chrome pages before touching the tab', async () => {
    const { ctx, page } = await open('/form.html');
    const result = text(await handlers.browser_navigate({ url: `${env.origin}/next.html` }, ctx));
    expect(result).toContain('- Page Title: "Next"');
    expect(page.url()).toBe(`${env.origin}/next.html`);
    await expect(
      handlers.browser_navigate({ url: 'chrome://settings' }, ctx),
    ).rejects.toMatchObject({
      code: 'RESTRICTED_URL',
    });
    expect(page.url()).toBe(`${env.origin}/next.html`);
  });
});

describe('browser_wait_for', () => {
  it('waits for text that appears after 800 ms', async () => {
    const { ctx, page } = await open('/delayed.html');
    await page.evaluate(() => (window as unknown as { startLoading: () => void }).startLoading());
    const started = performance.now();
    const result = text(await handlers.browser_wait_for({ text: 'Ready now' }, ctx));
    expect(performance.now() - started).toBeGreaterThan(600);
    expect(result).toMatch(/^Text "Ready now" appeared after \d\.\d s\.$/);
    await handlers.browser_wait_for({ textGone: 'Loading…' }, ctx);
  });

  it('fails with TIMEOUT when the text never appears', async () => {
    const { ctx } = await open('/delayed.html');
    await expect(
      handlers.browser_wait_for({ text: 'Never', timeout: 0.3 }, ctx),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });
});

describe('browser_evaluate and browser_take_screenshot', () => {
  it('passes the element of a ref to the function and returns JSON', async () => {
    const { ctx } = await open('/form.html');
    const ref = refOf(text(await handlers.browser_snapshot({}, ctx)), 'textbox "Name"');
    const result = text(
      await handlers.browser_evaluate({ function: '(el) => ({ value: el.value })', ref }, ctx),
    );
    expect(result).toContain('{\n  "value": "Bob"\n}');
    const title = text(
      await handlers.browser_evaluate({ function: 'async () => document.title // trailing' }, ctx),
    );
    expect(title).toContain('"Sign up"');
    const failure = await caught(
      handlers.browser_evaluate({ function: '() => { throw new Error("boom") }' }, ctx),
    );
    expect(failure.code).toBe('EVALUATION_FAILED');
    expect(failure.message).toMatch(
      /^The function threw\.\n### Exception \(untrusted page content\)\n```\nError: boom\n/,
    );
  });

  it('keeps the JavaScript value: special numbers, BigInt, nodes, collections, cycles (#27)', async () => {
    const { ctx } = await open('/form.html');
    const result = await handlers.browser_evaluate(
      {
        function: `() => {
          const cycle = { name: 'c' }; cycle.self = cycle;
          return { nan: NaN, inf: -Infinity, negZero: -0, big: 12345678901234567890n, none: undefined,
            node: document.getElementById('go'), map: new Map([['a', 1]]), set: new Set([2]),
            date: new Date(0), re: /x+/gi, cycle, list: [1, 'two', null] };
        }`,
      },
      ctx,
    );
    const shown = text(result);
    for (const piece of [
      '"nan": NaN',
      '"inf": -Infinity',
      '"negZero": -0',
      '"big": 12345678901234567890n',
      '"none": undefined',
      '"node": <button id="go" type="button">',
      'Map(1) {',
      '"a" => 1',
      'Set(1) {',
      'Date("1970-01-01T00:00:00.000Z")',
      '/x+/gi',
      '[Circular or repeated reference]',
    ])
      expect(shown).toContain(piece);
    expect(shown).toContain('```js\n');
    expect(result.structured).toMatchObject({
      type: 'object',
      truncated: false,
      value: {
        nan: { $type: 'number', value: 'NaN' },
        negZero: { $type: 'number', value: '-0' },
        big: { $type: 'bigint', value: '12345678901234567890' },
        none: { $type: 'undefined' },
        node: { $type: 'node', value: '<button id="go" type="button">' },
        map: { $type: 'map', entries: [['a', 1]] },
        set: { $type: 'set', values: [2] },
        list: [1, 'two', null],
      },
    });
    const big = await handlers.browser_evaluate(
      { function: '() => Array.from({ length: 20000 }, (_, i) => "item " + i)' },
      ctx,
    );
    const kept = big.structured as { truncated: boolean; value: string[] };
    expect(kept.truncated).toBe(true);
    expect(kept.value.slice(0, 2)).toEqual(['item 0', 'item 1']);
    expect(kept.value.length).toBeGreaterThan(100);
    expect(kept.value.length).toBeLessThan(20000);
  });

  it('captures a PNG of the page', async () => {
    const { ctx } = await open('/form.html');
    const result = await handlers.browser_take_screenshot({ fullPage: true }, ctx);
    const image = result.content[0];
    expect(image?.type).toBe('image');
    if (image?.type !== 'image') return;
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});
