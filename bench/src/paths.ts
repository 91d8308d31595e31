import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The bench package's own directory, found from here whether running from src/ or dist/. */
function findBenchDir(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes('"@browser-agent/bench"'))
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(`No @browser-agent/bench package above ${import.meta.dirname}.`);
    dir = parent;
  }
}

export const BENCH_DIR = findBenchDir();
export const WORKSPACE_DIR = path.dirname(BENCH_DIR);
export const FIXTURE_PAGES_DIR = path.join(BENCH_DIR, 'fixtures', 'pages');
export const BENCHMARKS_DOC = path.join(WORKSPACE_DIR, 'docs', 'benchmarks.md');
/** Logs of the latest run of each command (git-ignored). */
export const RESULTS_DIR = path.join(WORKSPACE_DIR, 'bench-results');

/** Everything the bench drives is the BUILT workspace (`pnpm build`), never sources. */
export const SERVER_BIN = path.join(WORKSPACE_DIR, 'mcp-server', 'bin', 'browser-agent-mcp.js');
export const EXTENSION_DIR = path.join(WORKSPACE_DIR, 'extension', 'dist');

/** The system Chromium unless CHROME_PATH names another; the bench never downloads a browser. */
export const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';

/** Flags for a Chromium the bench starts itself (the floor, the soak), as root in a container. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // The bridge's launch mode opens 1280×800 windows; the floor matches so screenshots compare.
  '--window-size=1280,800',
];
