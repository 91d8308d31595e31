/**
 * `browser-agent-mcp setup <client>`: adds (or updates) the browser-agent entry in the client's
 * MCP config, keeping every other server and setting, after copying the old file aside.
 * `--print` only prints the snippet to paste.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageDir } from '../shared/packageDir.js';
import {
  CLIENTS,
  clientConfig,
  PACKAGE_NAME,
  serverEntry,
  SERVER_KEY,
  type ClientName,
  type Place,
} from './clientConfigs.js';
import type { Output } from './extensionCommand.js';

export const SETUP_USAGE = `Usage: browser-agent-mcp setup <client> [options]

<client> is one of: ${CLIENTS.join(', ')}

Options:
  --print           print the config snippet instead of writing the client's config file
  --own-chrome      use your own Chrome with the extension loaded (default: --launch, the
                    server starts its own Chromium with the extension)
  --project <dir>   the project folder the agent works in (screenshots, traces, profile)
  --registry        write \`npx -y ${'@browser-agent/mcp-server'}\` (the npm registry's copy) instead
                    of this installed copy; only once the package is published there

By default the entry runs this installed copy: node and the path of its bin.
`;

export function runSetupCommand(
  argv: string[],
  io: Output,
  place: Place = { home: os.homedir(), platform: process.platform, env: process.env },
  now: () => Date = () => new Date(),
): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        print: { type: 'boolean' },
        'own-chrome': { type: 'boolean' },
        project: { type: 'string' },
        // The default now; kept so that older instructions still work.
        local: { type: 'boolean' },
        registry: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.err(`browser-agent-mcp setup: ${(err as Error).message}\n\n${SETUP_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(SETUP_USAGE);
    return 0;
  }
  const client = positionals[0];
  if (positionals.length !== 1 || !isClient(client)) {
    io.err(
      `browser-agent-mcp setup: ${client === undefined ? 'name the client' : `unknown client "${positionals.join(' ')}"`}; pick one of ${CLIENTS.join(', ')}.\n\n${SETUP_USAGE}`,
    );
    return 2;
  }
  if (values.registry && values.local) {
    io.err(
      `browser-agent-mcp setup: --registry and --local name two different commands; pick one.\n`,
    );
    return 2;
  }
  // The installed copy by default: the registry name is not published yet, and whoever
  // registered it later would be run by every config that names it (#28).
  const bin = path.join(packageDir(), 'bin', 'browser-agent-mcp.js');
  const entry = serverEntry(client, {
    launch: !values['own-chrome'],
    project: values.project === undefined ? undefined : path.resolve(values.project),
    local: values.registry ? undefined : { node: process.execPath, bin },
  });
  const which = values.registry
    ? `the npm registry's package (npx -y ${PACKAGE_NAME}); it needs that package to be published`
    : `this installed copy (${process.execPath} ${bin})`;
  const cacheWarning =
    !values.registry && /[\\/]_npx[\\/]/.test(bin)
      ? `Warning: this copy runs from npx's cache, which npm may clear. Install it for good (npm install -g <tarball or package>) and run setup again from there.\n`
      : '';
  const config = clientConfig(client, place);
  const snippet = { [config.listKey]: { [SERVER_KEY]: entry } };
  if (values.print) {
    io.out(`${JSON.stringify(snippet, null, 2)}\n`);
    io.err(
      `Add this to ${config.file} (merge it with the servers already there). It runs ${which}.\n${cacheWarning}`,
    );
    if (client === 'claude-code')
      io.err(
        `Or run: claude mcp add ${SERVER_KEY} --scope user -- ${[entry.command, ...entry.args].join(' ')}\n`,
      );
    return 0;
  }

  let current: Record<string, unknown> = {};
  if (existsSync(config.file)) {
    const text = readFileSync(config.file, 'utf8');
    try {
      const parsedFile: unknown = text.trim() === '' ? {} : JSON.parse(text);
      if (typeof parsedFile !== 'object' || parsedFile === null || Array.isArray(parsedFile))
        throw new Error('the top level is not an object');
      current = parsedFile as Record<string, unknown>;
    } catch (err) {
      io.err(
        `browser-agent-mcp setup: ${config.file} is not plain JSON (${(err as Error).message}); it was left unchanged. Fix it, or add the entry by hand: browser-agent-mcp setup ${client} --print\n`,
      );
      return 1;
    }
  }
  const list = current[config.listKey];
  if (list !== undefined && (typeof list !== 'object' || list === null || Array.isArray(list))) {
    io.err(
      `browser-agent-mcp setup: "${config.listKey}" in ${config.file} is not an object; it was left unchanged. Fix it, or use --print.\n`,
    );
    return 1;
  }
  const servers = { ...(list as Record<string, unknown> | undefined) };
  const replaced = SERVER_KEY in servers;
  servers[SERVER_KEY] = entry;
  const next = { ...current, [config.listKey]: servers };

  mkdirSync(path.dirname(config.file), { recursive: true });
  let backup: string | undefined;
  if (existsSync(config.file)) {
    backup = `${config.file}.${now().toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(config.file, backup);
  }
  const tmp = `${config.file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, config.file);
  const others = Object.keys(servers).filter((k) => k !== SERVER_KEY);
  io.out(
    `${replaced ? 'Updated' : 'Added'} "${SERVER_KEY}" in ${config.file}` +
      `${others.length > 0 ? ` (kept ${others.join(', ')})` : ''}` +
      `${backup ? `; the previous file is at ${backup}` : ''}.\n` +
      `It runs ${which}.\n${cacheWarning}` +
      `Restart ${client} to load it. If it does not work: browser-agent-mcp doctor\n`,
  );
  return 0;
}

function isClient(name: string | undefined): name is ClientName {
  return (CLIENTS as readonly string[]).includes(name ?? '');
}
