/**
 * Playwright Test fixtures that run the whole chain for real:
 *   MCP Client ─stdio→ built mcp-server ─Unix socket→ daemon ─ws→ relay page ─→ service worker ─→ tabs
 *
 * - `site`, `otherSite`: fixture pages on 127.0.0.1 (one server each, shared by a worker).
 * - `sandbox`: per-test scratch dir, BROWSER_AGENT_HOME and bridge port; starts MCP servers and, on
 *   teardown, stops them and the daemon and fails the test if any process of ours is left.
 * - `bridge`: the sandbox plus a Playwright Chromium with the built extension and its relay tab.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  EXTENSION_ORIGIN,
  RELAY_PAGE_PATH,
  type ToolArgs,
  type ToolName,
} from '@browser-agent/protocol';
import {
  test as base,
  chromium,
  expect,
  type BrowserContext,
  type Locator,
  type Page,
  type TestInfo,
  type Worker,
} from '@playwright/test';
import { provisionPairing } from '@browser-agent/mcp-server/pairingStore';
import { extensionFlags } from '@browser-agent/mcp-server/chromiumFlags';
import { startFixtureSite, type FixtureSite } from './fixtures/server.js';
import { startMcpChild } from '@browser-agent/testkit/mcpChild';
import { createScratch, readPid, type Scratch } from '@browser-agent/testkit/scratch';
import {
  CHROME_PATH,
  EXTENSION_DIR,
  SERVER_BIN,
  TEST_CHROMIUM_FLAGS,
} from '@browser-agent/testkit/workspace';
import {
  isRunning,
  processesWithArg,
  processesWithEnv,
  stopProcess,
  stopLeftovers,
  type ProcessInfo,
} from '@browser-agent/testkit/procfs';

export { expect };

/** A backstop only: teardown kills the daemon, but a leaked one still goes away on its own. */
const DAEMON_IDLE_EXIT_MS = 20_000;
/** How long the shared --isolated browser stays after its last session (10 s in use). */
const ISOLATED_LINGER_MS = 1_000;
/** Below the 60 s test timeout, so a hung call fails with the tool's name rather than a bare timeout. */
const TOOL_CALL_TIMEOUT_MS = 45_000;
/** The relay retries with a backoff of at most 2 s; the daemon may also take a moment to start. */
const RELAY_CONNECT_TIMEOUT_MS = 15_000;
const LOG_TAIL_CHARS = 8_000;

/** This test's scratch dir, home, port and environment (testkit's), and the servers started in it. */
export interface Sandbox extends Scratch {
  readonly socketPath: string;
  /**
   * Spawns `browser-agent-mcp [flags]` over stdio and returns the connected MCP client. `env` is
   * added to the sandbox's environment (a daemon this server spawns inherits it).
   */
  startServer(options?: ServerOptions): Promise<Client>;
  serverPid(client: Client): number;
  /** Everything this client's server wrote to stderr so far. */
  serverStderr(client: Client): string;
  /** The pid in daemon.pid, if the daemon wrote one. */
  daemonPid(): Promise<number | undefined>;
  /** Every running process that carries this test's marks (environment or command line). */
  ownProcesses(): ProcessInfo[];
}

export interface ServerOptions {
  name?: string;
  flags?: string[];
  env?: Record<string, string>;
  /** Directories the client offers as MCP roots (the client then has the roots capability). */
  roots?: string[];
  /** Answers elicitation requests (the client then has the elicitation capability). */
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  /** Another command than the workspace's built server (an installed package, npx); flags follow. */
  command?: { file: string; args: string[] };
}

export interface Bridge {
  readonly context: BrowserContext;
  /** The relay tab currently open; replaced by openRelay(). */
  readonly relay: Page;
  /** Opens the relay page in a new tab (it connects to the daemon on its own). */
  openRelay(): Promise<Page>;
  expectRelayState(state: 'connected' | 'disconnected'): Promise<void>;
  /** Starts an MCP server and waits until the relay is connected to its daemon. */
  connectClient(name?: string, options?: Omit<ServerOptions, 'name'>): Promise<Client>;
  /** The Playwright page of a tab (the extension's tabs show up in the context too). */
  pageWithUrl(url: string): Promise<Page>;
  /** The extension's service worker (the handle keeps working across worker restarts). */
  extensionWorker(): Worker;
  /** Every tab and tab group, as the extension's chrome.tabs and chrome.tabGroups see them. */
  tabLayout(): Promise<TabLayout>;
}

interface ServerProcess {
  name: string;
  client: Client;
  pid: number;
  stderr: () => string;
}

export const test = base.extend<
  { sandbox: Sandbox; bridge: Bridge },
  { site: FixtureSite; otherSite: FixtureSite }
>({
  site: [serveFixtureSite, { scope: 'worker' }],
  otherSite: [serveFixtureSite, { scope: 'worker' }],

  // Playwright reads a fixture's dependencies from this pattern, so it must be there even when empty.
  // eslint-disable-next-line no-empty-pattern
  sandbox: async ({}, use, testInfo) => {
    const scratch = await createScratch('ba-e2e-', DAEMON_IDLE_EXIT_MS);
    const { root, home, port } = scratch;
    // The shared isolated browser outlives its last session by 10 s; a test's teardown and its
    // "everything is gone" checks should not wait for that.
    const env = { ...scratch.env, BROWSER_AGENT_ISOLATED_LINGER_MS: String(ISOLATED_LINGER_MS) };
    const servers: ServerProcess[] = [];
    const daemonPid = () => readPid(path.join(home, 'daemon.pid'));
    const ownProcesses = () => {
      const byPid = new Map<number, ProcessInfo>();
      for (const p of [...processesWithEnv('BROWSER_AGENT_HOME', home), ...processesWithArg(root)])
        byPid.set(p.pid, p);
      return [...byPid.values()];
    };

    await use({
      root,
      home,
      env,
      socketPath: path.join(home, 'daemon.sock'),
      port,
      async startServer({
        name = 'e2e-client',
        flags = [],
        env: extra = {},
        roots,
        command,
        elicit,
      } = {}) {
        const server = await spawnServer(name, flags, { ...env, ...extra }, roots, command, elicit);
        servers.push(server);
        return server.client;
      },
      serverPid(client) {
        const server = servers.find((s) => s.client === client);
        if (!server) throw new Error('This client was not started by this sandbox.');
        return server.pid;
      },
      serverStderr(client) {
        const server = servers.find((s) => s.client === client);
        if (!server) throw new Error('This client was not started by this sandbox.');
        return server.stderr();
      },
      daemonPid,
      ownProcesses,
    });

    // The SDK ends stdin, then escalates to SIGTERM/SIGKILL; make sure, then stop the daemon.
    await Promise.all(servers.map((s) => s.client.close().catch(() => undefined)));
    for (const s of servers) if (isRunning(s.pid)) await stopProcess(s.pid);
    const daemon = await daemonPid();
    if (daemon !== undefined) await stopProcess(daemon);
    for (const pid of await projectDaemonPids(home)) await stopProcess(pid);
    const leftovers = await stopLeftovers(ownProcesses, 5_000);

    if (testInfo.status !== testInfo.expectedStatus) {
      await attachLogs(testInfo, home, servers);
      await keepFailed(root, home, servers);
    }
    await rm(root, { recursive: true, force: true });
    if (leftovers.length > 0) {
      throw new Error(
        `Processes were left behind after the servers and the daemon were stopped:\n${leftovers
          .map((p) => `  ${p.pid} ${p.cmdline}`)
          .join('\n')}`,
      );
    }
  },

  bridge: async ({ sandbox }, use) => {
    const context = await chromium.launchPersistentContext(path.join(sandbox.root, 'profile'), {
      executablePath: CHROME_PATH,
      headless: true,
      // No viewport emulation: the extension's tabs should look like tabs in a user's browser.
      viewport: null,
      args: [
        // Playwright passes --disable-extensions; only its exception lets ours load.
        ...extensionFlags(EXTENSION_DIR),
        ...TEST_CHROMIUM_FLAGS,
      ],
    });
    recordBrowserEvents(context);
    try {
      await waitForExtensionWorker(context);
      // Paired as launch mode pairs its browser: the daemon's half in its state directory, the
      // extension's half in the relay page's URL fragment.
      const relayUrl = `${EXTENSION_ORIGIN}/${RELAY_PAGE_PATH}?port=${sandbox.port}${provisionPairing(sandbox.home, 'e2e')}`;
      let relay = context.pages()[0] ?? (await context.newPage());
      await relay.goto(relayUrl);

      const expectRelayState = async (state: 'connected' | 'disconnected') => {
        await expect(
          relay.locator('#status'),
          `relay page ${relayUrl} should be ${state} (daemon log: ${path.join(sandbox.home, 'daemon.log')})`,
        ).toHaveAttribute('data-state', state, { timeout: RELAY_CONNECT_TIMEOUT_MS });
      };

      await use({
        context,
        get relay() {
          return relay;
        },
        async openRelay() {
          relay = await context.newPage();
          await relay.goto(relayUrl);
          return relay;
        },
        expectRelayState,
        async connectClient(name, options = {}) {
          const client = await sandbox.startServer(
            name === undefined ? options : { ...options, name },
          );
          await expectRelayState('connected');
          return client;
        },
        async pageWithUrl(url) {
          const find = () => context.pages().find((p) => p.url() === url);
          await expect
            .poll(() => find() !== undefined, {
              message: `no tab shows ${url}; open tabs: ${context
                .pages()
                .map((p) => p.url())
                .join(', ')}`,
            })
            .toBe(true);
          const page = find();
          if (!page) throw new Error(`Tab with ${url} closed while being looked up.`);
          return page;
        },
        extensionWorker: () => extensionWorker(context),
        tabLayout: () => readTabLayout(extensionWorker(context)),
      });
    } finally {
      await context.close();
    }
  },
});

// eslint-disable-next-line no-empty-pattern -- see the sandbox fixture
async function serveFixtureSite({}, use: (site: FixtureSite) => Promise<void>): Promise<void> {
  const site = await startFixtureSite();
  await use(site);
  await site.close();
}

async function spawnServer(
  name: string,
  flags: string[],
  env: Record<string, string>,
  roots?: string[],
  command?: { file: string; args: string[] },
  elicit?: ServerOptions['elicit'],
): Promise<ServerProcess> {
  const { client, pid, stderr } = await startMcpChild({
    name,
    version: '0.0.0-e2e',
    script: SERVER_BIN,
    args: flags,
    env,
    ...(command && { command }),
    ...(elicit && {
      clientOptions: { capabilities: { elicitation: {} } },
      prepare: (client: Client) => client.setRequestHandler(ElicitRequestSchema, elicit),
    }),
    ...(roots && {
      clientOptions: { capabilities: { roots: {} } },
      prepare: (client: Client) =>
        client.setRequestHandler(ListRootsRequestSchema, () => ({
          roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) })),
        })),
    }),
  });
  return { name, client, pid, stderr };
}

async function waitForExtensionWorker(context: BrowserContext): Promise<void> {
  const isOurs = (url: string) => url.startsWith(`${EXTENSION_ORIGIN}/`);
  if (context.serviceWorkers().some((w) => isOurs(w.url()))) return;
  try {
    await context.waitForEvent('serviceworker', {
      predicate: (w) => isOurs(w.url()),
      timeout: 10_000,
    });
  } catch {
    const seen = context.serviceWorkers().map((w) => w.url());
    throw new Error(
      `The extension's service worker (${EXTENSION_ORIGIN}) did not start from ${EXTENSION_DIR}. ` +
        `Workers seen: ${seen.length > 0 ? seen.join(', ') : 'none'}. A different id means the manifest key and the protocol's EXTENSION_ID disagree.`,
    );
  }
}

function extensionWorker(context: BrowserContext): Worker {
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(`${EXTENSION_ORIGIN}/`));
  if (!worker)
    throw new Error(`The extension's service worker (${EXTENSION_ORIGIN}) is not running.`);
  return worker;
}

async function attachLogs(
  testInfo: TestInfo,
  home: string,
  servers: ServerProcess[],
): Promise<void> {
  for (const s of servers) {
    await testInfo.attach(`${s.name} stderr`, {
      body: tail(s.stderr()),
      contentType: 'text/plain',
    });
  }
  const daemonLog = await readFile(path.join(home, 'daemon.log'), 'utf8').catch(
    () => '(no daemon.log)',
  );
  await testInfo.attach('daemon.log', { body: tail(daemonLog), contentType: 'text/plain' });
}

/**
 * With BA_E2E_KEEP_FAILED=<dir>, a failed test's home (daemon and browser logs), its servers'
 * stderr and what its browser's pages printed and did are copied to <dir>/<scratch name>: a flake
 * seen once in a long run can be read afterwards instead of guessed at.
 */
async function keepFailed(root: string, home: string, servers: ServerProcess[]): Promise<void> {
  const dir = process.env.BA_E2E_KEEP_FAILED;
  if (dir === undefined || dir === '') return;
  const keep = path.join(dir, path.basename(root));
  await mkdir(keep, { recursive: true });
  await cp(home, path.join(keep, 'home'), {
    recursive: true,
    filter: (file) => !file.endsWith('.sock'),
  }).catch(() => undefined);
  await writeFile(path.join(keep, 'browser-events.log'), browserEvents.join('\n'));
  for (const s of servers) await writeFile(path.join(keep, `${s.name}.stderr`), s.stderr());
}

/** The current test's browser: console lines and page crashes and closes, for keepFailed. */
let browserEvents: string[] = [];

function recordBrowserEvents(context: BrowserContext): void {
  browserEvents = [];
  if (process.env.BA_E2E_KEEP_FAILED === undefined) return;
  const note = (line: string) => browserEvents.push(`${new Date().toISOString()} ${line}`);
  context.on('console', (m) =>
    note(`console ${m.type()} [${m.page()?.url() ?? 'worker'}] ${m.text()}`),
  );
  context.on('page', (p) => {
    p.on('crash', () => note(`crash ${p.url()}`));
    p.on('close', () => note(`close ${p.url()}`));
  });
}

function tail(text: string): string {
  return text.length > LOG_TAIL_CHARS ? `…${text.slice(-LOG_TAIL_CHARS)}` : text;
}

/** Launch mode on a project runs that project's own daemon under <home>/projects/<key>/. */
export async function projectDaemonPids(home: string): Promise<number[]> {
  const dir = path.join(home, 'projects');
  const keys = await readdir(dir).catch(() => []);
  const pids = await Promise.all(keys.map((key) => readPid(path.join(dir, key, 'daemon.pid'))));
  return pids.filter((pid) => pid !== undefined);
}

// ── Calling tools ────────────────────────────────────────────────────────────────────────────

export interface ToolImage {
  data: string;
  mimeType: string;
}

export interface ToolOutcome {
  /** Every text part, joined by newlines. */
  text: string;
  images: ToolImage[];
  isError: boolean;
}

export async function callTool<N extends ToolName>(
  client: Client,
  name: N,
  args: ToolArgs<N>,
): Promise<ToolOutcome> {
  return callToolUntyped(client, name, args);
}

/** callTool without the contract's types: for arguments that a contract may not (yet) have. */
export async function callToolUntyped(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  const raw = await client.callTool({ name, arguments: args }, undefined, {
    timeout: TOOL_CALL_TIMEOUT_MS,
  });
  const result = CallToolResultSchema.parse(raw);
  const texts: string[] = [];
  const images: ToolImage[] = [];
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image') images.push({ data: part.data, mimeType: part.mimeType });
  }
  return { text: texts.join('\n'), images, isError: result.isError === true };
}

/** callTool that throws, naming the tool, its arguments and what came back, unless it succeeded. */
export async function callOk<N extends ToolName>(
  client: Client,
  name: N,
  args: ToolArgs<N>,
): Promise<ToolOutcome> {
  const outcome = await callTool(client, name, args);
  if (outcome.isError) {
    throw new Error(`${name} ${JSON.stringify(args)} returned an error:\n${outcome.text}`);
  }
  return outcome;
}

// ── Reading snapshots ────────────────────────────────────────────────────────────────────────

export async function snapshot(client: Client): Promise<string> {
  return (await callOk(client, 'browser_snapshot', {})).text;
}

/** The ref on the snapshot line `- <role> "<name>" … [eN]`. */
export function findRef(snapshot: string, role: string, name: string): string {
  const head = `- ${role} ${JSON.stringify(name)}`;
  for (const line of snapshot.split('\n')) {
    const trimmed = line.trimStart();
    if (!trimmed.startsWith(head) || !/^($|[\s:])/.test(trimmed.slice(head.length))) continue;
    const ref = /^(?: \[[^\]]*\])*? \[(e\d+)\](?=$|[\s:])/.exec(trimmed.slice(head.length))?.[1];
    if (ref !== undefined) return ref;
  }
  throw new Error(
    `No ${role} named ${JSON.stringify(name)} with a ref in this snapshot:\n${snapshot}`,
  );
}

/** The snapshot line that carries `[<ref>]`. */
export function lineWithRef(snapshot: string, ref: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(`[${ref}]`));
  if (line === undefined) throw new Error(`No line with [${ref}] in this snapshot:\n${snapshot}`);
  return line.trim();
}

// ── Tabs and tab groups, as the extension sees them ──────────────────────────────────────────

export interface BrowserTab {
  id: number;
  url: string;
  /** -1 when the tab is in no group. */
  groupId: number;
}

export interface TabGroup {
  id: number;
  title: string;
  color: string;
}

export interface TabLayout {
  tabs: BrowserTab[];
  groups: TabGroup[];
}

/** The part of the extension API the layout needs; e2e has no @types/chrome. */
interface ChromeTabsApi {
  tabs: {
    query(
      q: object,
    ): Promise<Array<{ id?: number; url?: string; pendingUrl?: string; groupId: number }>>;
  };
  tabGroups: { query(q: object): Promise<Array<{ id: number; title?: string; color: string }>> };
}

function readTabLayout(worker: Worker): Promise<TabLayout> {
  return worker.evaluate(async () => {
    // Runs in the service worker, where `chrome` is a global.
    const api = (globalThis as unknown as { chrome: ChromeTabsApi }).chrome;
    const [tabs, groups] = await Promise.all([api.tabs.query({}), api.tabGroups.query({})]);
    return {
      tabs: tabs.map((t) => ({
        id: t.id ?? -1,
        url: t.url ?? t.pendingUrl ?? '',
        groupId: t.groupId,
      })),
      groups: groups.map((g) => ({ id: g.id, title: g.title ?? '', color: g.color })),
    };
  });
}

/** URLs of the tabs in the group titled `title` (an agent's lease), in tab order. */
export function urlsInGroup(layout: TabLayout, title: string): string[] {
  const ids = layout.groups.filter((g) => g.title === title).map((g) => g.id);
  return layout.tabs.filter((t) => ids.includes(t.groupId)).map((t) => t.url);
}

/** The tab showing `url`; throws with the tabs there are when none does. */
export function tabWithUrl(layout: TabLayout, url: string): BrowserTab {
  const tab = layout.tabs.find((t) => t.url === url);
  if (!tab)
    throw new Error(`No tab shows ${url}; tabs: ${layout.tabs.map((t) => t.url).join(', ')}`);
  return tab;
}

// ── The side panel ───────────────────────────────────────────────────────────────────────────

/** The panel's entry for the session of the MCP client named `client`. */
export function panelSession(panel: Page, client: string): Locator {
  return panel
    .locator('#sessions li.session')
    .filter({ has: panel.getByRole('button', { name: client, exact: true }) });
}

/**
 * Forgets the harness's pairing, as a browser that never met this bridge, and opens the side
 * panel in place of the relay tab; returns the panel once it asks the user to pair.
 */
export async function panelOfUnpairedBrowser(bridge: Bridge, sandbox: Sandbox): Promise<Page> {
  await bridge.extensionWorker().evaluate(async () => {
    const storage = (
      globalThis as unknown as {
        chrome: { storage: { local: { remove(key: string): Promise<void> } } };
      }
    ).chrome.storage.local;
    await storage.remove('pairings');
  });
  await bridge.relay.close();
  const panel = await bridge.context.newPage();
  await panel.goto(`${EXTENSION_ORIGIN}/src/sidepanel/index.html?port=${sandbox.port}`);
  await expect(panel.locator('#pairing')).toBeVisible({ timeout: 15_000 });
  return panel;
}

/** Starts a call and cancels it (notifications/cancelled) after ms; resolves once it is settled. */
export async function cancelAfter(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  ms: number,
): Promise<unknown> {
  const controller = new AbortController();
  const call = client.callTool({ name, arguments: args }, undefined, {
    signal: controller.signal,
    timeout: 60_000,
  });
  await sleep(ms);
  controller.abort('the agent changed its mind');
  return call.then(
    () => 'answered',
    (err: unknown) => err,
  );
}
