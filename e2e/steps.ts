/** The first steps most specs take, so each test reads as what it checks. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, type Bridge, type ServerOptions } from './harness.js';

/** A new agent (its own MCP server, the relay connected to its daemon) with its tab on `url`. */
export async function agentOn(
  bridge: Bridge,
  url: string,
  { name, ...options }: ServerOptions = {},
): Promise<Client> {
  const client = await bridge.connectClient(name, options);
  await callOk(client, 'browser_navigate', { url });
  return client;
}

/** Agents "alpha-agent" and "beta-agent", both connected before either opens its tab. */
export async function alphaAndBeta(
  bridge: Bridge,
  alphaUrl: string,
  betaUrl: string,
): Promise<{ alpha: Client; beta: Client }> {
  const alpha = await bridge.connectClient('alpha-agent');
  const beta = await bridge.connectClient('beta-agent');
  await callOk(alpha, 'browser_navigate', { url: alphaUrl });
  await callOk(beta, 'browser_navigate', { url: betaUrl });
  return { alpha, beta };
}

/** Clicks the button named `button` and waits until the page shows `done`. */
export async function clickAndWaitFor(client: Client, button: string, done: string): Promise<void> {
  await callOk(client, 'browser_click', { role: 'button', name: button });
  await callOk(client, 'browser_wait_for', { text: done });
}
