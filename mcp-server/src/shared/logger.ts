import { appendFileSync } from 'node:fs';

/**
 * Namespaced logger. Never writes to stdout: in the MCP server stdout carries only MCP frames.
 * The daemon runs detached, so it logs to a file instead of stderr.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  child(namespace: string): Logger;
}

type Sink = (line: string) => void;

let sink: Sink = (line) => process.stderr.write(line);

/** Sends every logger's output to a file (used by the detached daemon). */
export function logToFile(path: string): void {
  sink = (line) => {
    try {
      appendFileSync(path, line, { mode: 0o600 });
    } catch {
      // Logging must never take the process down.
    }
  };
}

export function createLogger(namespace: string): Logger {
  const write = (level: string, message: string): void => {
    if (level === 'info' && process.env['BROWSER_AGENT_QUIET'] === '1') return;
    sink(`${new Date().toISOString()} ${level} [${namespace}] ${message}\n`);
  };
  return {
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
    child: (ns) => createLogger(`${namespace}:${ns}`),
  };
}
