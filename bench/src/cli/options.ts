/**
 * Run options: `--name=value` on the command line, else the environment variable, else the
 * default. Counts are bounded so a typo cannot start an endless run on a shared machine.
 */
const MAX_COUNT = 10_000;

export function countOption(flag: string, envName: string, fallback: number): number {
  const raw = flagValue(flag) ?? process.env[envName];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > MAX_COUNT)
    throw new Error(
      `--${flag} / ${envName} must be a whole number from 0 to ${MAX_COUNT}, not "${raw}".`,
    );
  return n;
}

/** One of `choices`: `--name=value`, else the environment variable, else the first choice. */
export function choiceOption<C extends string>(
  flag: string,
  envName: string,
  choices: readonly [C, ...C[]],
): C {
  const raw = flagValue(flag) ?? process.env[envName];
  if (raw === undefined || raw === '') return choices[0];
  const choice = choices.find((c) => c === raw);
  if (choice === undefined)
    throw new Error(`--${flag} / ${envName} must be one of ${choices.join(', ')}, not "${raw}".`);
  return choice;
}

export function hasFlag(flag: string): boolean {
  return process.argv.includes(`--${flag}`);
}

function flagValue(flag: string): string | undefined {
  const prefix = `--${flag}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}
