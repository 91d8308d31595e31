/**
 * The 9-page scenario suite: short flows an agent really runs (sign in, fill a form, read a
 * table, find a control on a long page, wait for an SPA, follow links and come back, search,
 * juggle tabs, check a dashboard). Each flow checks that it got what the agent was after.
 */
import type { FixtureSite } from '../../fixtures/server.js';
import type { Agent } from '../agents/agent.js';
import { expectText } from './expect.js';

export interface Flow {
  id: string;
  title: string;
  run(agent: Agent, site: FixtureSite): Promise<void>;
}

export const suite: readonly Flow[] = [
  {
    id: 'login',
    title: 'Sign in and land on the welcome page',
    async run(agent, site) {
      await agent.goto(site.url('/login.html'));
      await agent.read();
      await agent.type({ role: 'textbox', name: 'Username' }, 'ada');
      await agent.type({ role: 'textbox', name: 'Password' }, 'correct horse', { submit: true });
      await agent.waitForText('Welcome, ada');
      expectText(await agent.read(), 'unread messages', 'welcome page');
    },
  },
  {
    id: 'contact-form',
    title: 'Fill and send a contact form',
    async run(agent, site) {
      await agent.goto(site.url('/form.html'));
      await agent.read();
      await agent.type({ role: 'textbox', name: 'Name' }, 'Grace Hopper');
      await agent.type({ role: 'textbox', name: 'Email' }, 'grace@example.test');
      // Two choices: one select step per pass made the guard's select median one of three.
      await agent.select({ role: 'combobox', name: 'Topic' }, 'Billing');
      await agent.select({ role: 'combobox', name: 'Reply by' }, 'Phone');
      await agent.type({ role: 'textbox', name: 'Message' }, 'Please call me back.');
      await agent.click({ role: 'checkbox', name: 'Subscribe to news' });
      await agent.click({ role: 'button', name: 'Send' });
      await agent.waitForText('Thanks, Grace Hopper (subscribed) about Billing, reply by phone');
    },
  },
  {
    id: 'table',
    title: 'Read a 1,000-row table and extract from it',
    async run(agent, site) {
      await agent.goto(site.url('/table.html'));
      expectText(await agent.read(), 'customer1@example.test', 'table snapshot');
      const rows = await agent.evaluate("() => document.querySelectorAll('tbody tr').length");
      expectText(rows, '1000', 'row count');
      const city = await agent.evaluate(
        "() => document.querySelector('tbody tr:nth-child(500) td:nth-child(4)').textContent",
      );
      expectText(city, 'Osaka', 'city of row 500');
    },
  },
  {
    id: 'big-page',
    title: 'Find and press one button on a page of ~5,000 elements',
    async run(agent, site) {
      await agent.goto(site.url('/big.html'));
      await agent.read();
      await agent.find('Button 100-2');
      await agent.click({ role: 'button', name: 'Button 100-2' });
      const clicks = await agent.evaluate(
        "() => document.querySelector('#s100 button:nth-of-type(2)').dataset.clicks",
      );
      expectText(clicks, '1', 'clicks on Button 100-2');
    },
  },
  {
    id: 'spa',
    title: 'Wait for an SPA to load, open an item',
    async run(agent, site) {
      await agent.goto(site.url('/spa.html?delay=400'));
      await agent.waitForText('Loaded 20 items');
      await agent.read();
      await agent.click({ role: 'button', name: 'Open item 7' });
      await agent.waitForText('item 7 details');
      expectText(await agent.read(), 'In stock: 11', 'item 7 details');
    },
  },
  {
    id: 'articles',
    title: 'Follow a link, read, go back',
    async run(agent, site) {
      await agent.goto(site.url('/articles.html'));
      await agent.read();
      await agent.click({ role: 'link', name: 'Article 3: Sessions and tabs' });
      await agent.waitForText('Paragraph 1 of article 3');
      await agent.read();
      await agent.back();
      expectText(await agent.read(), 'Article 4: Snapshots and refs', 'article list after back');
    },
  },
  {
    id: 'search',
    title: 'Search a product list',
    async run(agent, site) {
      await agent.goto(site.url('/search.html'));
      await agent.read();
      await agent.type({ role: 'searchbox', name: 'Search products' }, 'lamp', { submit: true });
      await agent.waitForText('25 results for "lamp"');
      expectText(await agent.read(), 'blue lamp 193', 'search results');
    },
  },
  {
    id: 'tabs',
    title: 'Open a second tab, look at it, close it',
    async run(agent, site) {
      await agent.openTab(site.url('/titled?title=Release%20notes'));
      expectText(await agent.listTabs(), 'Release', 'tab list with the new tab');
      expectText(await agent.read(), 'Release notes', 'new tab snapshot');
      await agent.closeTab();
      await agent.listTabs();
    },
  },
  {
    id: 'dashboard',
    title: 'Look at a dashboard, its console, one figure',
    async run(agent, site) {
      await agent.goto(site.url('/dashboard.html'));
      await agent.screenshot();
      expectText(await agent.consoleMessages(), 'forecast', 'console errors');
      const revenue = await agent.evaluate("() => document.getElementById('revenue').textContent");
      expectText(revenue, '$48,210', 'revenue tile');
    },
  },
];
