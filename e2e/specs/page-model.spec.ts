import { ErrorCode } from '@browser-agent/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, callTool, expect, findRef, snapshot, test } from '../harness.js';
import { agentOn } from '../steps.js';

/** The default maxChars bounds the whole response (head and marker included), whatever the page. */
const RESPONSE_BUDGET_CHARS = 40_000;

test.describe('page model', () => {
  test('outline shows roles, names, states, values and link URLs; never a password or card number', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/controls.html'));
    const text = await snapshot(client);
    expect(text).toContain('- Snapshot generation: 1');
    expect(text).toContain('### Page snapshot (untrusted page content)');
    expect(text).toMatch(/- heading "Every control" \[level=1\] \[e\d+\]/);
    expect(text).toMatch(/- textbox "Full name" \[e\d+\]: Old name/);
    expect(text).toMatch(/- checkbox "Terms" \[checked\] \[e\d+\]/);
    expect(text).toMatch(/- radio "Free" \[checked\] \[e\d+\]/);
    expect(text).toMatch(/- textbox "Disabled field" \[disabled\] \[e\d+\]/);
    expect(text).toMatch(/- button "Menu" \[e\d+\]/);
    // Same-origin URLs are shown relative to the page, as the link's own href reads.
    expect(text).toMatch(/- link "A link" \[e\d+\] \[url=\/titled\?title=Linked\]/);
    expect(text).toMatch(/textbox "Password" \[value hidden\]/);
    expect(text).toMatch(/textbox "Card number" \[value hidden\]/);
    for (const secret of ['hunter2-initial', '4111111111111111']) {
      expect(text).not.toContain(secret);
      const html = await callOk(client, 'browser_get_text', {});
      expect(html.text).not.toContain(secret);
    }
    await callOk(client, 'browser_click', { role: 'button', name: 'Menu' });
    expect(await snapshot(client)).toMatch(/- button "Menu" \[expanded\] \[e\d+\]/);
  });

  test('refs are stable across snapshots; a changed element is STALE_REF, never a different one', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/controls.html'));
    const first = await snapshot(client);
    const second = await snapshot(client);
    expect(second).toContain('- Snapshot generation: 2');
    const ref = findRef(first, 'button', 'Double click me');
    expect(findRef(second, 'button', 'Double click me')).toBe(ref);
    // A ref copied with the brackets the snapshot shows it in names the same element.
    const copied = await callOk(client, 'browser_evaluate', {
      ref: `[${ref}]`,
      function: '(el) => el.textContent',
    });
    expect(copied.text).toContain('Double click me');

    await callOk(client, 'browser_evaluate', {
      function: "() => { document.querySelector('[ondblclick]').remove(); }",
    });
    const stale = await callTool(client, 'browser_click', { ref });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain(ErrorCode.STALE_REF);
    expect(stale.text).toContain('browser_snapshot');
  });

  test('size is bounded: truncation marker, depth limit, subtree by ref, and find with paths', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/table'));
    const whole = await snapshot(client);
    expect(whole.length).toBeLessThanOrEqual(RESPONSE_BUDGET_CHARS);
    expect(whole).toMatch(/\[Snapshot truncated: showing \d+ of \d+ lines/);
    expect(whole).toContain('browser_find');
    expect(whole).toContain('"ref": "e');

    const small = await callOk(client, 'browser_snapshot', { maxChars: 2000 });
    expect(small.text.length).toBeLessThan(3500);
    expect(small.text).toContain('[Snapshot truncated');

    const shallow = await callOk(client, 'browser_snapshot', { depth: 1 });
    expect(shallow.text).toMatch(/lines below the depth limit; browser_snapshot with ref e\d+/);
    expect(shallow.text).not.toContain('Row 500');

    const found = await callOk(client, 'browser_find', { text: 'Row 777' });
    expect(found.text).toContain('cell "Row 777"');
    const rowRef = /path: table > row \[(e\d+)\]/.exec(found.text)?.[1];
    expect(rowRef).toBeDefined();
    const sub = await callOk(client, 'browser_snapshot', { ref: rowRef ?? '' });
    expect(sub.text).toContain('subtree of');
    expect(sub.text).toContain('button "Edit 777"');
    expect(sub.text).not.toContain('Row 778');

    const regex = await callOk(client, 'browser_find', { regex: '^- button "Edit 99\\d"' });
    expect(regex.text).toContain('10 hit(s)');

    await callOk(client, 'browser_navigate', { url: site.url('/big') });
    const big = await snapshot(client);
    expect(big.length).toBeLessThanOrEqual(RESPONSE_BUDGET_CHARS);
    expect(big).toContain('[Snapshot truncated');
    const end = await callOk(client, 'browser_find', { text: 'The very end' });
    expect(end.text).toContain('1 hit(s)');
  });

  test('actions report what changed since the last snapshot, plus URL and title', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/spa.html'));
    await callOk(client, 'browser_wait_for', { text: 'Delayed content arrived' });
    await snapshot(client);
    const result = await callOk(client, 'browser_click', { role: 'button', name: 'Load more' });
    // The click's fetch and the DOM work after it are waited for before the diff is taken.
    expect(result.text).toContain('- Page URL:');
    expect(result.text).toContain('Changes since your last snapshot');
    expect(result.text).toMatch(/\+ - listitem[^\n]*Item alpha/);
    expect(result.text).not.toContain('Every control');

    const nav = await callOk(client, 'browser_click', { role: 'link', name: 'About' });
    expect(nav.text).toContain('#/about');
    expect(nav.text).toMatch(/\+ - heading "About view"/);
    expect(nav.text).toMatch(/- - heading "Home view"/);
  });

  test('same-origin iframes, cross-origin iframes and open shadow roots are in the outline and actionable', async ({
    bridge,
    site,
    otherSite,
  }) => {
    const client = await agentOn(bridge, site.url(`/frames.html?other=${otherSite.port}`));
    await callOk(client, 'browser_wait_for', {
      selector: 'iframe[title="Cross origin"]',
      state: 'attached',
    });
    await expect
      .poll(async () => snapshot(client), { timeout: 15_000 })
      .toContain('Cross-origin child');
    const text = await snapshot(client);
    expect(text).toContain('heading "Inner same-origin"');
    expect(text).toContain('heading "Shadow heading"');

    await callOk(client, 'browser_click', { ref: findRef(text, 'button', 'Shadow button') });
    expect(await snapshot(client)).toContain('button "Shadow clicked"');

    await callOk(client, 'browser_click', { ref: findRef(text, 'button', 'Child button') });
    expect(await snapshot(client)).toContain('button "Child clicked"');
  });

  test('an out-of-process iframe inside another one is in the outline, and its refs act', async ({
    bridge,
    site,
    otherSite,
  }) => {
    // 127.0.0.1 → localhost → 127.0.0.1: each frame is cross-site to its parent.
    const client = await agentOn(bridge, site.url(`/nested-frames.html?other=${otherSite.port}`));
    await expect
      .poll(async () => snapshot(client), { timeout: 15_000 })
      .toContain('Innermost child');
    const text = await snapshot(client);
    expect(text).toMatch(
      /- Iframe "Middle" \[e\d+\]:\n\s+- heading "Middle frame" \[level=2\] \[e\d+\]\n\s+- Iframe "Innermost" \[e\d+\]:\n\s+- heading "Innermost child"/,
    );
    const ref = findRef(text, 'button', 'Innermost button');
    await callOk(client, 'browser_click', { ref });
    expect(await snapshot(client)).toContain('button "Innermost clicked"');

    const byRole = await callOk(client, 'browser_click', {
      role: 'button',
      name: 'Innermost clicked',
    });
    expect(byRole.text).toContain(`[${ref}]`);
  });

  test('nameless clickable divs, by cursor, onclick or addEventListener, show [cursor=pointer] with a ref that clicks them', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/custom-controls.html'));
    const text = await snapshot(client);
    const styled = /- generic \[(e\d+)\] \[cursor=pointer\]\n/.exec(text)?.[1];
    expect(styled).toBeDefined();
    expect(text).toMatch(/- generic \[e\d+\] \[cursor=pointer\]: Pick me \(all of this line\)/);
    // An inline onclick handler marks a custom control too, though its cursor is the default, and
    // so does a listener added with addEventListener (the last one); a removed listener does not.
    const marked = [...text.matchAll(/- generic \[(e\d+)\] \[cursor=pointer\]/g)];
    expect(marked).toHaveLength(4);
    await callOk(client, 'browser_click', { ref: marked[3]?.[1] ?? '' });
    expect(await snapshot(client)).toContain('Listened div clicked');

    await callOk(client, 'browser_click', { ref: styled ?? '' });
    expect(await snapshot(client)).toContain('Styled div clicked');
  });

  test('CSS selectors reach into open shadow roots; an ambiguous one lists the candidates', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/frames.html'));
    await expectBothHeadingsListed(client, 'h1, h2');

    await callOk(client, 'browser_click', { selector: 'button[onclick]' });
    expect(await snapshot(client)).toContain('button "Shadow clicked"');

    const invalid = await callTool(client, 'browser_click', { selector: 'button[' });
    expect(invalid.text).toContain(ErrorCode.INVALID_ARGS);
  });

  test('descendant and child combinators cross open shadow boundaries, as in Playwright', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/frames.html'));
    // `body` is in the document, both headings below it: one in the light tree, one in a shadow root.
    await expectBothHeadingsListed(client, 'body :is(h1, h2)');

    await callOk(client, 'browser_click', { selector: '#host > h2 + button' });
    expect(await snapshot(client)).toContain('button "Shadow clicked"');
    const text = await callOk(client, 'browser_evaluate', {
      selector: 'div#host button',
      function: '(el) => el.textContent',
    });
    expect(text.text).toContain('"Shadow clicked"');
  });
});

/** frames.html has a heading in the light tree and one in a shadow root: both are candidates. */
async function expectBothHeadingsListed(client: Client, selector: string): Promise<void> {
  const ambiguous = await callTool(client, 'browser_click', { selector });
  expect(ambiguous.isError).toBe(true);
  expect(ambiguous.text).toContain(ErrorCode.AMBIGUOUS_TARGET);
  expect(ambiguous.text).toMatch(/- heading "Frames" \[e\d+\]/);
  expect(ambiguous.text).toMatch(/- heading "Shadow heading" \[e\d+\]/);
}

test.describe('the default snapshot keeps what an agent acts on (#17)', () => {
  test('a 1,000-row table of links: at least 90% of the links show with their ref', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/link-table'));
    const whole = await snapshot(client);
    expect(whole.length).toBeLessThanOrEqual(RESPONSE_BUDGET_CHARS);
    const linked = new Set(Array.from(whole.matchAll(/link "Item (\d+)" \[e\d+\]/g), (m) => m[1]));
    expect(linked.size).toBeGreaterThanOrEqual(900);
    // What is left out is named with the call that shows it.
    if (linked.size < 1000) expect(whole).toMatch(/"ref": "e\d+"|browser_find/);
  });

  test('a long article: the controls after the text are kept and the text cuts are marked', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/long-article'));
    const whole = await snapshot(client);
    expect(whole.length).toBeLessThanOrEqual(RESPONSE_BUDGET_CHARS);
    expect(whole).toMatch(/textbox "Your comment" \[e\d+\]/);
    expect(whole).toMatch(/checkbox "Notify me" \[e\d+\]/);
    expect(whole).toMatch(/button "Post comment" \[e\d+\]/);
    expect(whole).toMatch(/link "Terms of use" \[e\d+\]/);
    expect(whole).toContain('heading "Comments"');
    expect(whole).toMatch(/… \[\+\d+ chars\]/);
    expect(whole).toContain('Sentence 1 of paragraph 120');
  });
});
