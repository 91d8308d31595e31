import { progress } from '../log.js';

const cleanups: Array<() => Promise<unknown>> = [];

/** Registers a cleanup that also runs on SIGINT/SIGTERM/SIGHUP, so no run leaves processes. */
export function atExit(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((err: unknown) => progress(`cleanup failed: ${String(err)}`));
  }
}

/** Runs a bench entry point: exit code 0 when it returns true, 1 when false or it throws. */
export function runMain(body: () => Promise<boolean>): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
  body()
    .then(
      (ok) => {
        process.exitCode = ok ? 0 : 1;
      },
      (err: unknown) => {
        progress(err instanceof Error ? (err.stack ?? err.message) : String(err));
        process.exitCode = 1;
      },
    )
    .finally(() => runCleanups());
}
