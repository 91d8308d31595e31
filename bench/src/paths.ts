import path from 'node:path';
import { WINDOW_SIZE_FLAG } from '@browser-agent/mcp-server/chromiumFlags';
import { TEST_CHROMIUM_FLAGS, WORKSPACE_DIR } from '@browser-agent/testkit/workspace';

export {
  CHROME_PATH,
  EXTENSION_DIR,
  SERVER_BIN,
  WORKSPACE_DIR,
} from '@browser-agent/testkit/workspace';

/** The bench package's own directory. */
export const BENCH_DIR = path.join(WORKSPACE_DIR, 'bench');
export const FIXTURE_PAGES_DIR = path.join(BENCH_DIR, 'fixtures', 'pages');
export const BENCHMARKS_DOC = path.join(WORKSPACE_DIR, 'docs', 'benchmarks.md');
/** Logs of the latest run of each command (git-ignored). */
export const RESULTS_DIR = path.join(WORKSPACE_DIR, 'bench-results');

/**
 * Flags for a Chromium the bench starts itself (the floor, the soak): the tests' flags, in
 * launch mode's window size so the floor's screenshots compare with the bridge's.
 */
export const CHROMIUM_FLAGS = [...TEST_CHROMIUM_FLAGS, WINDOW_SIZE_FLAG];
