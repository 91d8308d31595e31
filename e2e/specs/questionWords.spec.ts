/**
 * Issue #28.2: a question says who asks (the friendly name), what the action is on in the
 * page's own words (role and name, not the agent's description), the text it would type with
 * secrets masked in every place it shows (panel, MCP client), outlines the element on the tab
 * while it waits, and counts down.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { callTool, expect, snapshot, test, type Bridge, type ToolOutcome } from '../harness.js';
import { question } from '../submitQuestions.js';

const SECRET = 'tok-Qx81-zz';

/** Waits for the call's question in the panel, returns its words, answers `button`. */
async function askedAndAnswered(
  bridge: Bridge,
  call: Promise<ToolOutcome>,
  button: 'Allow' | 'Deny',
  whileOpen: () => Promise<void> = () => Promise.resolve(),
): Promise<{ words: string; outcome: ToolOutcome }> {
  const asked = question(bridge.relay);
  // A call that fails before it asks says why here, not as a missing question.
  const early = await Promise.race([
    call,
    expect(asked)
      .toHaveCount(1)
      .then(() => undefined),
  ]);
  if (early !== undefined) throw new Error(`answered without a question: ${early.text}`);
  const words = await asked.innerText();
  await whileOpen();
  await asked.getByRole('button', { name: button, exact: true }).click();
  const outcome = await call;
  await expect(asked).toHaveCount(0);
  return { words, outcome };
}

/** The color of the tab's pixel at (x, y), decoded in the relay page (no image library here). */
async function pixel(bridge: Bridge, page: Page, x: number, y: number): Promise<number[]> {
  const png = (await page.screenshot()).toString('base64');
  return bridge.relay.evaluate(
    async ({ png, x, y }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      if (context === null) return [];
      context.drawImage(image, 0, 0);
      return [...context.getImageData(x, y, 1, 1).data.slice(0, 3)];
    },
    { png, x: Math.round(x), y: Math.round(y) },
  );
}

test('a question names the element and the text, outlines it, counts down; secrets stay hidden', async ({
  bridge,
  sandbox,
  site,
}) => {
  const secrets = path.join(sandbox.root, 'secrets.env');
  await writeFile(secrets, `API_KEY=${SECRET}\n`);
  const prompts: string[] = [];
  const client = await bridge.connectClient('claude-code', {
    flags: ['--permission-mode', 'ask', '--secrets', secrets],
    elicit: (request) => {
      prompts.push(String(request.params.message));
      return new Promise(() => undefined);
    },
  });
  const url = site.url('/login.html');
  const host = new URL(url).host;

  const opened = await askedAndAnswered(
    bridge,
    callTool(client, 'browser_navigate', { url }),
    'Allow',
  );
  expect(opened.words).toContain(`Let Claude Code open ${url}?`);
  expect(opened.outcome.isError, opened.outcome.text).toBe(false);

  // By ref: the question names the element as the page does (its role and name).
  const outline = await snapshot(client);
  const ref = /textbox "User" \[(e\d+)\]/.exec(outline)?.[1];
  expect(ref, outline).toBeDefined();
  const page = await bridge.pageWithUrl(url);
  const box = await page.getByLabel('User').boundingBox();
  if (box === null) throw new Error('the User field has no box');
  const typed = await askedAndAnswered(
    bridge,
    callTool(client, 'browser_type', { ref, text: 'ada lovelace' }),
    'Deny',
    async () => {
      // Outlined on the tab (3 px outside the field's box, the overlay's purple), and counting down.
      await expect
        .poll(() => pixel(bridge, page, box.x - 4, box.y + box.height / 2))
        .toEqual([109, 40, 217]);
      const line = question(bridge.relay).locator('.countdown');
      const first = await line.innerText();
      await expect(line).not.toHaveText(first, { timeout: 3_000 });
    },
  );
  expect(typed.words).toContain(
    `Let Claude Code type “ada lovelace” into the textbox “User” on ${host}?`,
  );
  await expect(page.getByLabel('User')).toHaveValue('');
  // After the answer the outline is gone.
  await expect
    .poll(() => pixel(bridge, page, box.x - 4, box.y + box.height / 2))
    .not.toEqual([109, 40, 217]);

  // A secret typed by its name, and any text into a password field, are never shown.
  const bySecret = await askedAndAnswered(
    bridge,
    callTool(client, 'browser_type', { ref, text: 'API_KEY' }),
    'Deny',
  );
  expect(bySecret.words).toContain('type one of your secrets (hidden) into the textbox “User”');
  const password = await askedAndAnswered(
    bridge,
    callTool(client, 'browser_type', { role: 'textbox', name: 'Password', text: 'hunter22' }),
    'Deny',
  );
  expect(password.words).toContain(
    'type a secret (8 characters, hidden) into the textbox “Password”',
  );
  for (const words of [bySecret.words, password.words]) {
    expect(words).not.toContain(SECRET);
    expect(words).not.toContain('hunter22');
  }
  // The MCP client was asked with the same words, the secret by its name only.
  expect(prompts.some((p) => p.includes('type one of your secrets (hidden)'))).toBe(true);
  expect(prompts.join('\n')).not.toContain(SECRET);
  expect(prompts.join('\n')).not.toContain('hunter22');
  expect(prompts.join('\n')).not.toContain('(Tab: )');
});
