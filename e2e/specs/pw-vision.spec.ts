/**
 * Issue #18, item 4: the `vision` group's mouse at x,y (CSS pixels of the viewport), as
 * Playwright MCP names it. The page logs every mouse event with its client coordinates; the
 * tests read that log back.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

async function eventLog(client: Client): Promise<string[]> {
  const result = await callOk(client, 'browser_evaluate', {
    function: "() => [...document.querySelectorAll('#log div')].map((d) => d.textContent)",
  });
  const json = /```json\n([\s\S]*)\n```/.exec(result.text)?.[1] ?? '[]';
  return JSON.parse(json) as string[];
}

async function clearLog(client: Client): Promise<void> {
  await callOk(client, 'browser_evaluate', {
    function: "() => { document.getElementById('log').textContent = ''; }",
  });
}

test('mouse tools are listed only with --caps vision', async ({ bridge, site }) => {
  const plain = await agentOn(bridge, site.url('/pw-mouse.html'));
  expect((await plain.listTools()).tools.map((t) => t.name)).not.toContain(
    'browser_mouse_click_xy',
  );
});

test('click, right click and double click at x,y reach the page at that point', async ({
  bridge,
  site,
}) => {
  const client = await agentOn(bridge, site.url('/pw-mouse.html'), { flags: ['--caps', 'vision'] });
  const click = await callOk(client, 'browser_mouse_click_xy', { x: 100, y: 120 });
  expect(click.text).toContain('Clicked at (100, 120).');
  expect(await eventLog(client)).toEqual([
    'mousemove 100 120 buttons:0',
    'mousedown button:0 at 100 120',
    'mouseup button:0 at 100 120',
    'click button:0 at 100 120',
  ]);

  await clearLog(client);
  await callOk(client, 'browser_mouse_click_xy', { x: 50, y: 60, button: 'right' });
  const right = await eventLog(client);
  expect(right).toContain('mousedown button:2 at 50 60');
  expect(right).toContain('contextmenu button:2 at 50 60');
  expect(right).toContain('mouseup button:2 at 50 60');

  await clearLog(client);
  await callOk(client, 'browser_mouse_click_xy', { x: 70, y: 80, clickCount: 2 });
  expect(await eventLog(client)).toContain('dblclick button:0 at 70 80');
});

test('move, down, up, wheel and drag at x,y', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/pw-mouse.html'), { flags: ['--caps', 'vision'] });
  await callOk(client, 'browser_mouse_move_xy', { x: 30, y: 40 });
  await callOk(client, 'browser_mouse_down', {});
  await callOk(client, 'browser_mouse_up', {});
  await callOk(client, 'browser_mouse_wheel', { deltaY: 200 });
  const log = await eventLog(client);
  expect(log.slice(0, 4)).toEqual([
    'mousemove 30 40 buttons:0',
    'mousedown button:0 at 30 40',
    'mouseup button:0 at 30 40',
    'click button:0 at 30 40',
  ]);
  expect(log).toContain('wheel 0 200 at 30 40');

  await clearLog(client);
  await callOk(client, 'browser_mouse_drag_xy', { startX: 10, startY: 20, endX: 110, endY: 220 });
  const drag = await eventLog(client);
  expect(drag[0]).toBe('mousemove 10 20 buttons:0');
  expect(drag[1]).toBe('mousedown button:0 at 10 20');
  expect(drag).toContain('mousemove 110 220 buttons:1');
  expect(drag.at(-2)).toBe('mouseup button:0 at 110 220');
});
