/**
 * A fault-injection run (#16): N sessions call tools while the harness cancels calls, kills the
 * MCP server, the daemon and the service worker, closes tabs under calls, and serves pages that
 * hang, stall, error and stop their renderer. Counts every call and its answers; after each fault
 * every session must be able to carry on, and never see another session's tab.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Bridge, Sandbox } from './harness.js';
import type { FaultSite } from './fixtures/faultSite.js';

export type FaultKind =
  | 'cancel'
  | 'hang'
  | 'stall'
  | 'late'
  | 'error-page'
  | 'close-tab'
  | 'spin'
  | 'crash-renderer'
  | 'kill-server'
  | 'kill-daemon'
  | 'stop-worker';

/**
 * Every fault the run survives today. 'crash-renderer' hung the run once: the harness awaited
 * `Page.crash`, which never answers (its renderer is gone); it is sent, not awaited, now.
 */
export const ALL_FAULTS: readonly FaultKind[] = [
  'cancel',
  'hang',
  'stall',
  'late',
  'error-page',
  'close-tab',
  'kill-server',
  'spin',
  'crash-renderer',
  'stop-worker',
  'kill-daemon',
];

export interface FaultRunFigures {
  sessions: number;
  calls: number;
  answered: number;
  /** Calls whose id got more than one response. */
  doubleAnswers: number;
  /** Calls the harness cancelled (they get no answer, by the protocol). */
  cancelled: number;
  /** Calls whose MCP server the harness killed under them (their connection is gone). */
  cutByKill: number;
  faultsInjected: number;
  faultsSurvived: number;
  /** Tab lists that showed another session's page. */
  leaks: number;
  /** Faults after which a session could not carry on, with what it last said. */
  failures: string[];
  byFault: Record<string, { injected: number; survived: number }>;
}

interface Agent {
  index: number;
  name: string;
  client: Client;
  env: Record<string, string>;
  /** The page that marks this session's own tab. */
  home: string;
}

export interface FaultRunOptions {
  bridge: Bridge;
  sandbox: Sandbox;
  faults: FaultSite;
  sessions: number;
  /** The faults to inject, in order; each hits one session while the others keep calling. */
  plan: readonly FaultKind[];
  configPath: string;
  log?: (line: string) => void;
  /** Logs every call with its duration and, when it failed, its answer. */
  trace?: boolean;
}

/** Counts the responses per request id the client's transport delivers. */
function countAnswers(client: Client, figures: FaultRunFigures): void {
  const transport = client.transport;
  if (transport === undefined) return;
  const seen = new Map<string | number, number>();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && ('result' in message || 'error' in message)) {
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      if (n === 1) figures.answered += 1;
      else figures.doubleAnswers += 1;
    }
    deliver?.call(transport, message, extra);
  };
}

export async function runFaults(options: FaultRunOptions): Promise<FaultRunFigures> {
  const { bridge, sandbox, faults, plan, configPath } = options;
  const log = options.log ?? (() => undefined);
  const figures: FaultRunFigures = {
    sessions: options.sessions,
    calls: 0,
    answered: 0,
    doubleAnswers: 0,
    cancelled: 0,
    cutByKill: 0,
    faultsInjected: 0,
    faultsSurvived: 0,
    leaks: 0,
    failures: [],
    byFault: {},
  };

  const connect = async (agent: Omit<Agent, 'client'>): Promise<Agent> => {
    const client = await bridge.connectClient(agent.name, {
      flags: ['--config', configPath],
      env: agent.env,
    });
    countAnswers(client, figures);
    return { ...agent, client };
  };

  const call = async (
    agent: Agent,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ ok: boolean; text: string }> => {
    figures.calls += 1;
    const at = Date.now();
    const said = (r: { ok: boolean; text: string }) => {
      if (options.trace)
        log(`  ${agent.name} ${name} ${Date.now() - at} ms ${r.ok ? 'ok' : r.text.slice(0, 160)}`);
      return r;
    };
    return said(
      await (async () => {
        try {
          const raw = await agent.client.callTool({ name, arguments: args }, CallToolResultSchema, {
            timeout: 45_000,
            ...(signal ? { signal } : {}),
          });
          const result = CallToolResultSchema.parse(raw);
          const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
          return { ok: result.isError !== true, text };
        } catch (err) {
          return { ok: false, text: String(err) };
        }
      })(),
    );
  };

  const agents: Agent[] = [];
  for (let i = 0; i < options.sessions; i++) {
    const agent = await connect({
      index: i,
      name: `fault-agent-${i}`,
      env: { BROWSER_AGENT_SESSION_KEY: `fault-key-${i}`, BROWSER_AGENT_SESSION_GRACE_MS: '4000' },
      home: faults.url(`/titled?title=Agent${i}`),
    });
    agents.push(agent);
    await call(agent, 'browser_navigate', { url: agent.home });
  }

  /** The session carries on: its own page opens and answers (retried while the chain comes back). */
  const carriesOn = async (agent: Agent): Promise<string | undefined> => {
    let last = '';
    for (let attempt = 0; attempt < 8; attempt++) {
      const opened = await call(agent, 'browser_navigate', { url: agent.home });
      const title = opened.ok
        ? await call(agent, 'browser_evaluate', { function: '() => document.title' })
        : opened;
      if (title.ok && title.text.includes(`Agent${agent.index}`)) return undefined;
      last = title.text;
      // Every error says what to do next.
      if (!/Hint:|MCP error|Connection closed/.test(last)) return `no hint: ${last.slice(0, 300)}`;
      await sleep(1_000);
    }
    return last.slice(0, 300);
  };

  const sees = async (agent: Agent): Promise<void> => {
    const listed = await call(agent, 'browser_tabs', { action: 'list' });
    for (const other of agents)
      if (other !== agent && listed.text.includes(`Agent${other.index}`)) figures.leaks += 1;
  };

  /** Background calls of the other sessions while a fault hits one. */
  const busyOthers = (victim: Agent): Promise<unknown> =>
    Promise.all(
      agents
        .filter((a) => a !== victim)
        .map(async (a) => {
          await call(a, 'browser_snapshot', {});
          await call(a, 'browser_wait_for', { time: 1 });
          await call(a, 'browser_evaluate', { function: '() => document.title' });
        }),
    );

  const inject = async (fault: FaultKind, victim: Agent): Promise<void> => {
    const underCall = async (work: () => Promise<void>) => {
      const running = call(victim, 'browser_wait_for', { time: 3 });
      await sleep(700);
      await work();
      await running;
    };
    switch (fault) {
      case 'cancel': {
        const controller = new AbortController();
        const running = call(
          victim,
          'browser_navigate',
          { url: faults.url('/never?cancel') },
          controller.signal,
        );
        await sleep(500);
        controller.abort('fault run');
        figures.cancelled += 1;
        await running;
        return;
      }
      case 'hang':
        await call(victim, 'browser_navigate', { url: faults.url('/never?hang') });
        return;
      case 'stall':
        await call(victim, 'browser_navigate', { url: faults.url('/stalled') });
        await call(victim, 'browser_snapshot', {});
        return;
      case 'late':
        await call(victim, 'browser_navigate', { url: faults.url('/late?ms=2500&title=Late') });
        await call(victim, 'browser_snapshot', {});
        return;
      case 'error-page':
        await call(victim, 'browser_navigate', { url: faults.url('/status/500') });
        return;
      case 'spin':
        await call(victim, 'browser_navigate', { url: faults.url('/spin') });
        await sleep(600);
        await call(victim, 'browser_evaluate', { function: '() => 1' });
        return;
      case 'close-tab':
        await underCall(async () => {
          const page = await bridge.pageWithUrl(victim.home);
          await page.close();
        });
        return;
      case 'crash-renderer':
        await underCall(async () => {
          const page = await bridge.pageWithUrl(victim.home);
          const cdp = await bridge.context.newCDPSession(page);
          // Page.crash never answers (its renderer is gone): sent, and its crash waited for.
          void cdp.send('Page.crash').catch(() => undefined);
          await page.waitForEvent('crash', { timeout: 5_000 }).catch(() => undefined);
        });
        return;
      case 'kill-server': {
        const running = call(victim, 'browser_wait_for', { time: 3 });
        await sleep(700);
        process.kill(sandbox.serverPid(victim.client), 'SIGKILL');
        figures.cutByKill += 1;
        await running;
        agents[victim.index] = await connect(victim);
        return;
      }
      case 'kill-daemon': {
        const pid = await sandbox.daemonPid();
        const running = call(victim, 'browser_wait_for', { time: 3 });
        await sleep(700);
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
        await running;
        return;
      }
      case 'stop-worker': {
        const probe = await bridge.context.newPage();
        try {
          await underCall(async () => {
            const cdp = await bridge.context.newCDPSession(probe);
            await cdp.send('ServiceWorker.enable');
            await cdp.send('ServiceWorker.stopAllWorkers');
          });
        } finally {
          await probe.close();
        }
        return;
      }
    }
  };

  for (const [round, fault] of plan.entries()) {
    const victim = agents[round % agents.length];
    if (victim === undefined) continue;
    const entry = (figures.byFault[fault] ??= { injected: 0, survived: 0 });
    entry.injected += 1;
    figures.faultsInjected += 1;
    log(`fault ${round + 1}/${plan.length}: ${fault} on ${victim.name}`);
    await Promise.all([inject(fault, victim), busyOthers(victim)]);
    const stuck: string[] = [];
    for (const agent of agents) {
      const failure = await carriesOn(agent);
      if (failure !== undefined) stuck.push(`${fault} → ${agent.name}: ${failure}`);
      await sees(agent);
    }
    if (stuck.length === 0) {
      entry.survived += 1;
      figures.faultsSurvived += 1;
    } else figures.failures.push(...stuck);
  }

  for (const agent of agents) await agent.client.close();
  return figures;
}
