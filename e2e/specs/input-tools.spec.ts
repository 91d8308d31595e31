import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, findRef, snapshot, test } from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('input tools', () => {
  test('click: buttons, modifiers, double and right clicks; targets by ref, role+name and selector', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/controls.html');
    const client = await agentOn(bridge, url);
    const page = await bridge.pageWithUrl(url);

    await callOk(client, 'browser_click', {
      role: 'button',
      name: 'Double click me',
      ...{ doubleClick: true },
    });
    await expect(page.getByText('Double clicked')).toBeVisible();

    await callOk(client, 'browser_click', { selector: 'button[oncontextmenu]', button: 'right' });
    await expect(page.getByText('Context menu opened')).toBeVisible();

    await callOk(client, 'browser_click', {
      role: 'button',
      name: 'Modifier click',
      modifiers: ['Shift'],
    });
    await expect(page.getByText('Shift held: true')).toBeVisible();

    const ref = findRef(await snapshot(client), 'button', 'Div button');
    const clicked = await callOk(client, 'browser_click', { ref });
    expect(clicked.text).toContain('Clicked button "Div button"');
    await expect(page.getByText('Div clicked')).toBeVisible();

    // Ambiguous: both candidates are listed by ref; nth picks one.
    const ambiguous = await callTool(client, 'browser_click', { role: 'button', name: 'Same' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain(ErrorCode.AMBIGUOUS_TARGET);
    expect(ambiguous.text.match(/button "Same" \[e\d+\]/g)).toHaveLength(2);
    await callOk(client, 'browser_click', { role: 'button', name: 'Same', nth: 1 });

    const none = await callTool(client, 'browser_click', { selector: '#nope' });
    expect(none.text).toContain(ErrorCode.ELEMENT_NOT_FOUND);
    const two = await callTool(client, 'browser_click', { ref, selector: 'button' });
    expect(two.text).toContain(ErrorCode.INVALID_ARGS);
    const badSelector = await callTool(client, 'browser_click', { selector: '##' });
    expect(badSelector.text).toContain(ErrorCode.INVALID_ARGS);
  });

  test('select_option by ref takes in a page that patches the DOM methods it calls, and the page hears it', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/select-patched.html');
    const client = await agentOn(bridge, url);
    const page = await bridge.pageWithUrl(url);
    const ref = findRef(await snapshot(client), 'combobox', 'Plan');
    const chosen = await callOk(client, 'browser_select_option', { ref, values: ['Pro'] });
    expect(chosen.text).toContain('Selected "Pro" in combobox "Plan"');
    // The choice is real (the page's own setter swallowed it in the main world) and the page's
    // change listener ran (its patched dispatchEvent swallowed the main world's events).
    await expect(page.locator('#plan')).toHaveValue('Pro');
    await expect(page.locator('#chosen')).toHaveText('Plan: Pro');
    // fill_form sets its selects the same way.
    await callOk(client, 'browser_fill_form', {
      fields: [{ role: 'combobox', name: 'Plan', value: 'Free' }],
    });
    await expect(page.locator('#plan')).toHaveValue('Free');
    await expect(page.locator('#chosen')).toHaveText('Plan: Free');
  });

  test('select_option waits for what the choice started: a request, a new page', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/select-actions.html'));
    // As an agent does: it read the page before it chose; the result shows what changed since.
    const region = await callOk(client, 'browser_select_option', {
      ref: findRef(await snapshot(client), 'combobox', 'Region'),
      values: ['North'],
    });
    expect(region.text).toContain('Items: alpha, beta');
    const jump = await callOk(client, 'browser_select_option', {
      role: 'combobox',
      name: 'Go to',
      values: ['Jumped'],
    });
    expect(jump.text).toContain('Jumped');
    expect(jump.text).toContain('A new page is shown');
  });

  test('type (clear, append, submit), fill_form, select_option, hover and press_key', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/controls.html');
    const client = await agentOn(bridge, url);
    const page = await bridge.pageWithUrl(url);

    await callOk(client, 'browser_type', { role: 'textbox', name: 'Full name', text: 'Ada' });
    await expect(page.locator('input[name=fullname]')).toHaveValue('Ada');
    await callOk(client, 'browser_type', {
      role: 'textbox',
      name: 'Full name',
      text: ' Lovelace',
      clear: false,
    });
    await expect(page.locator('input[name=fullname]')).toHaveValue('Ada Lovelace');
    await callOk(client, 'browser_type', { selector: 'textarea', text: 'Hi', slowly: true });
    await expect(page.locator('textarea')).toHaveValue('Hi');

    const notEditable = await callTool(client, 'browser_type', {
      role: 'checkbox',
      name: 'Newsletter',
      text: 'x',
    });
    expect(notEditable.text).toContain(ErrorCode.NOT_EDITABLE);

    const filled = await callOk(client, 'browser_fill_form', {
      fields: [
        { role: 'textbox', name: 'Email', value: 'ada@example.com' },
        { selector: 'input[name=password]', value: 'sup3r-secret' },
        { role: 'checkbox', name: 'Newsletter', value: true },
        { role: 'checkbox', name: 'Terms', value: false },
        { role: 'radio', name: 'Pro', value: true },
        { role: 'combobox', name: 'Country', value: 'Japan' },
      ],
    });
    expect(filled.text).not.toContain('sup3r-secret');
    expect(filled.text).toContain('12 characters');
    await expect(page.locator('input[name=email]')).toHaveValue('ada@example.com');
    await expect(page.locator('input[name=news]')).toBeChecked();
    await expect(page.locator('input[name=terms]')).not.toBeChecked();
    await expect(page.locator('input[value=pro]')).toBeChecked();
    await expect(page.locator('select[name=country]')).toHaveValue('jp');

    await callOk(client, 'browser_select_option', {
      selector: 'select[multiple]',
      values: ['Cheese', 'Basil'],
    });
    expect(
      await page
        .locator('select[multiple]')
        .evaluate((s: HTMLSelectElement) => [...s.selectedOptions].map((o) => o.value)),
    ).toEqual(['Cheese', 'Basil']);
    const badOption = await callTool(client, 'browser_select_option', {
      role: 'combobox',
      name: 'Country',
      values: ['Mars'],
    });
    expect(badOption.text).toContain('Mars');

    await callOk(client, 'browser_hover', { selector: '#hovered' });
    await expect(page.locator('#hovered')).toHaveText('Hovered!');

    await callOk(client, 'browser_press_key', { key: 'Control+Shift+K' });
    await expect(page.locator('#keys')).toHaveText('Key: Control+Shift+K');
    await callOk(client, 'browser_press_key', { key: 'ArrowDown' });
    await expect(page.locator('#keys')).toHaveText('Key: ArrowDown');
    const badKey = await callTool(client, 'browser_press_key', { key: 'Hyper+X' });
    expect(badKey.text).toContain(ErrorCode.INVALID_ARGS);

    // Submit with Enter after typing.
    await callOk(client, 'browser_type', {
      role: 'textbox',
      name: 'Full name',
      text: 'Grace',
      submit: true,
    });
    await expect(page.locator('#out')).toContainText('"fullname":"Grace"');
  });

  test('scroll, drag and drop, file upload', async ({ bridge, site, sandbox }) => {
    // Uploads come only from the client's roots (see hostile-pages.spec.ts for refusals).
    const client = await agentOn(bridge, site.url('/tall'), { roots: [sandbox.root] });
    const tall = await bridge.pageWithUrl(site.url('/tall'));
    await callOk(client, 'browser_scroll', { deltaY: 600 });
    expect(await tall.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await callOk(client, 'browser_scroll', { role: 'heading', name: 'Top of a tall page' });
    expect(await tall.evaluate(() => window.scrollY)).toBeLessThan(100);

    const dnd = site.url('/dnd.html');
    await callOk(client, 'browser_navigate', { url: dnd });
    const page = await bridge.pageWithUrl(dnd);
    await callOk(client, 'browser_drag', { from: { selector: '#c' }, to: { selector: '#a' } });
    await expect(page.locator('#order')).toHaveText('Order: Cherry, Apple, Banana');
    await callOk(client, 'browser_drag', {
      from: { selector: '#b' },
      to: { role: 'region', name: 'Bin' },
    });
    await expect(page.locator('#bin')).toHaveText('Dropped b');

    const dir = await mkdtemp(path.join(sandbox.root, 'upload-'));
    try {
      const file = path.join(dir, 'notes.txt');
      await writeFile(file, 'hello upload');
      const uploadUrl = site.url('/upload.html');
      await callOk(client, 'browser_navigate', { url: uploadUrl });
      const upload = await bridge.pageWithUrl(uploadUrl);
      await callOk(client, 'browser_file_upload', { selector: '#file', paths: [file] });
      await expect(upload.locator('#names')).toHaveText('notes.txt:12');

      const missing = path.join(dir, 'missing.pdf');
      const refused = await callTool(client, 'browser_file_upload', {
        selector: '#file',
        paths: [missing],
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(ErrorCode.FILE_NOT_FOUND);
      expect(refused.text).toContain(missing);
      const relative = await callTool(client, 'browser_file_upload', {
        selector: '#file',
        paths: ['notes.txt'],
      });
      // A relative path is read against the client's first root (as Playwright MCP does), and
      // then checked like any other: here it names a file that is not there.
      expect(relative.isError).toBe(true);
      expect(relative.text).toContain(ErrorCode.FILE_NOT_FOUND);
      expect(relative.text).toMatch(/\/notes\.txt/);
      const notFile = await callTool(client, 'browser_file_upload', {
        role: 'heading',
        name: 'Upload',
        paths: [file],
      });
      expect(notFile.text).toContain(ErrorCode.NOT_EDITABLE);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
