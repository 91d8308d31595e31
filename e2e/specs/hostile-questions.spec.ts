/**
 * Issue #25 item 2: a question only the person may answer. A prompt-injected agent whose call
 * waits for an answer cancels it (as a client's stop button or timeout does) and then tries to
 * answer the question left on the tab's overlay itself: a coordinate click on its button, Tab
 * and Enter, a script. The question must close with its call, and no agent input may reach it.
 * The overlay lives in a closed shadow root; as in permissionGaps.spec.ts the test finds its
 * buttons through the DevTools protocol, as a person finds them on screen.
 */
import type { CDPSession, Page } from '@playwright/test';
import { callOk, callTool, expect, test } from '../harness.js';
import { askBeforeSecretSubmit, question } from '../submitQuestions.js';

interface DomNode {
  nodeId: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

function text(node: DomNode): string {
  if (node.nodeName === '#text') return node.nodeValue ?? '';
  return (node.children ?? []).map(text).join('');
}

function* walk(node: DomNode): Generator<DomNode> {
  yield node;
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) yield* walk(child);
}

async function questionButtons(cdp: CDPSession): Promise<DomNode[]> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
    root: DomNode;
  };
  const host = [...walk(root)].find((n) => n.attributes?.includes('browser-agent-overlay'));
  const shadow = host?.shadowRoots?.[0];
  const box = shadow && [...walk(shadow)].find((n) => n.attributes?.includes('question'));
  return box === undefined ? [] : [...walk(box)].filter((n) => n.nodeName === 'BUTTON');
}

/** The labels and on-screen centres of the overlay question's buttons (none when closed). */
async function overlayButtons(
  page: Page,
): Promise<{ label: string; x: number; y: number; shown: boolean }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const buttons = await questionButtons(cdp);
    return await Promise.all(
      buttons.map(async (b) => {
        // The box may close between the two reads: a button without a box is not there.
        const { model } = (await cdp
          .send('DOM.getBoxModel', { nodeId: b.nodeId })
          .catch(() => ({ model: { border: [] } }))) as { model: { border: number[] } };
        const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.border;
        return {
          label: text(b),
          x: (x1 + x3) / 2,
          y: (y1 + y3) / 2,
          shown: model.border.length > 0,
        };
      }),
    ).then((all) => all.filter((b) => b.shown));
  } finally {
    await cdp.detach();
  }
}

test('a cancelled call closes its question everywhere, and the agent cannot answer one', async ({
  bridge,
  site,
  otherSite,
}) => {
  test.setTimeout(120_000);
  const client = await bridge.connectClient('self-answer', {
    flags: ['--permission-mode', 'per-site', '--caps', 'vision'],
  });
  const first = callTool(client, 'browser_navigate', { url: site.url('/button.html') });
  await expect(question(bridge.relay)).toHaveCount(1);
  await question(bridge.relay)
    .getByRole('button', { name: 'Allow on this site', exact: true })
    .click();
  expect((await first).isError).toBe(false);
  const page = await bridge.pageWithUrl(site.url('/button.html'));
  const elsewhere = otherSite.url('/button.html', 'localhost');

  // The agent asks to go to a site never granted, and its client cancels the waiting call.
  const stop = new AbortController();
  const waiting = client
    .callTool({ name: 'browser_navigate', arguments: { url: elsewhere } }, undefined, {
      signal: stop.signal,
      timeout: 60_000,
    })
    .catch(() => 'cancelled');
  await expect.poll(async () => (await overlayButtons(page)).length).toBeGreaterThan(0);
  const buttons = await overlayButtons(page);
  const allow =
    buttons.find((b) => b.label === 'Allow for the rest of this task') ??
    buttons.find((b) => b.label.startsWith('Allow'));
  expect(allow).toBeDefined();
  stop.abort('the user pressed stop');
  expect(await waiting).toBe('cancelled');

  // Closed with its call: gone from the overlay and from the panel.
  await expect.poll(async () => (await overlayButtons(page)).length).toBe(0);
  await expect(question(bridge.relay)).toHaveCount(0);

  // Whatever the agent sends where the button was, nothing is answered.
  await callTool(client, 'browser_mouse_click_xy', { x: allow?.x ?? 0, y: allow?.y ?? 0 });
  await callTool(client, 'browser_press_key', { key: 'Tab' });
  await callTool(client, 'browser_press_key', { key: 'Enter' });
  // The site is still not granted: going there asks again.
  const again = callTool(client, 'browser_navigate', { url: elsewhere });
  await expect(question(bridge.relay)).toHaveCount(1);
  await question(bridge.relay).getByRole('button', { name: 'Deny', exact: true }).click();
  expect((await again).isError).toBe(true);

  await callOk(client, 'browser_snapshot', {});
});

test('a cancelled call closes its held-submit question everywhere, and the form is never sent', async ({
  bridge,
  site,
}) => {
  test.setTimeout(120_000);
  const client = await bridge.connectClient('self-answer', { flags: ['--caps', 'vision'] });
  await askBeforeSecretSubmit(bridge);
  await callOk(client, 'browser_navigate', { url: site.url('/login.html') });
  await callOk(client, 'browser_fill_form', {
    fields: [
      { role: 'textbox', name: 'User', value: 'ada' },
      { role: 'textbox', name: 'Password', value: 'pw-123456' },
    ],
  });
  const page = await bridge.pageWithUrl(site.url('/login.html'));

  // The click's submit is held and asked about; the agent's client cancels the waiting call.
  const stop = new AbortController();
  const waiting = client
    .callTool(
      { name: 'browser_click', arguments: { role: 'button', name: 'Sign in' } },
      undefined,
      {
        signal: stop.signal,
        timeout: 60_000,
      },
    )
    .catch(() => 'cancelled');
  await expect(question(bridge.relay)).toHaveCount(1);
  await expect.poll(async () => (await overlayButtons(page)).length).toBeGreaterThan(0);
  const allow = (await overlayButtons(page)).find((b) => b.label.startsWith('Allow'));
  expect(allow).toBeDefined();
  stop.abort('the user pressed stop');
  expect(await waiting).toBe('cancelled');

  // Closed with its call, in the panel and on the overlay; the held submit was dropped.
  await expect(question(bridge.relay)).toHaveCount(0);
  await expect.poll(async () => (await overlayButtons(page)).length).toBe(0);
  await callTool(client, 'browser_mouse_click_xy', { x: allow?.x ?? 0, y: allow?.y ?? 0 });
  await expect(page.locator('#status')).toHaveText('Idle');
  expect(page.url()).toBe(site.url('/login.html'));
});
