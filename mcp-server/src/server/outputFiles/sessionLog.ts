/**
 * `--save-session` (Playwright MCP's flag): every call of the session, as the client saw it, in
 * a Markdown file of the output directory (`session-<time>.md`, a new owner-only file per
 * session, never one that exists). Typed text is written only where the browser's own answer
 * echoed it (the extension echoes no secret field's text, by secretKind's rule); a `--secrets`
 * name stays a name and no secret value is written.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findContract, replaceTypedArgs, type ToolContract } from '@browser-agent/protocol';
import { redactText, type Secrets } from '../settings/secrets.js';
import { createOutputFile, fileStamp, type NewFile } from './newFile.js';

/** Longer typed text is never echoed whole, so it is never written either. */
const MAX_ECHOED_CHARS = 100;
const MAX_RESULT_CHARS = 20_000;

export interface SessionCall {
  tool: string;
  /** As the agent sent them (secret names, not values). */
  args: Record<string, unknown>;
  /** Which of the arguments are typed text (the tool's contract or the alias). */
  typedArgs: TypedArgsSource | undefined;
  /** As the client got it (secret values already replaced by names). */
  result: CallToolResult;
  startedAt: Date;
  ms: number;
}

function typedValue(value: unknown, shown: string, secrets: Secrets): unknown {
  if (typeof value === 'string') {
    if (secrets.has(value)) return `<secret>${value}</secret>`;
    const echoed =
      value.length <= MAX_ECHOED_CHARS && value !== '' && shown.includes(JSON.stringify(value));
    return echoed ? value : '[redacted]';
  }
  if (Array.isArray(value)) return value.map((v) => typedValue(v, shown, secrets));
  return value === null || typeof value !== 'object' ? value : '[redacted]';
}

/** What says which arguments are typed: a tool's contract, or an alias's own declaration. */
export type TypedArgsSource = Pick<ToolContract, 'secretArgs' | 'typedArgs' | 'permission'>;

/**
 * The arguments as written to the log: what the contract calls typed (typedArgs.ts) only where
 * the answer showed it, and no secret value anywhere.
 */
export function loggedArgs(
  args: unknown,
  contract: TypedArgsSource | undefined,
  shown: string,
  secrets: Secrets,
): unknown {
  const typed = replaceTypedArgs(
    contract,
    args,
    (v) => typedValue(v, shown, secrets),
    findContract,
  );
  return redactStrings(typed, secrets);
}

function redactStrings(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactStrings(v, secrets)]),
    );
  }
  return value;
}

/** A fence longer than any backtick run in the text, so page text cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function resultText(result: CallToolResult): string {
  const parts = result.content.map((part) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'image') return `[image ${part.mimeType}, ${part.data.length} base64 chars]`;
    return `[${part.type}]`;
  });
  const text = parts.join('\n');
  return text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n[… ${text.length - MAX_RESULT_CHARS} more chars]`
    : text;
}

export class SessionLog {
  readonly #outputDir: string | undefined;
  readonly #secrets: Secrets;
  #file: Promise<NewFile> | undefined;
  /** Appends in call order, one at a time. */
  #queue: Promise<void> = Promise.resolve();
  #count = 0;

  constructor(outputDir: string | undefined, secrets: Secrets) {
    this.#outputDir = outputDir;
    this.#secrets = secrets;
  }

  /**
   * The log file, made (exclusively, 0600) on the first call; every entry is appended through
   * the handle that made it, so a link put in its place later is never written through.
   */
  file(): Promise<NewFile> {
    this.#file ??= (async () => {
      const made = await createOutputFile(this.#outputDir, `session-${fileStamp()}.md`, true);
      await made.handle.appendFile(`# Browser Agent session, ${new Date().toISOString()}\n`);
      return made;
    })();
    return this.#file;
  }

  record(call: SessionCall): void {
    const n = (this.#count += 1);
    const shown = resultText(call.result);
    const args = loggedArgs(call.args, call.typedArgs, shown, this.#secrets);
    const status = call.result.isError === true ? 'error' : 'ok';
    const entry = [
      '',
      `## ${n}. ${call.tool} (${status}, ${call.ms} ms)`,
      '',
      `Started ${call.startedAt.toISOString()}.`,
      '',
      fenced(JSON.stringify(args, null, 2), 'json'),
      '',
      fenced(redactText(shown, this.#secrets)),
      '',
    ].join('\n');
    this.#queue = this.#queue
      .then(async () => (await this.file()).handle.appendFile(entry))
      // The log must never fail a call.
      .catch(() => undefined);
  }

  /** Resolves once everything recorded so far is written. */
  flushed(): Promise<void> {
    return this.#queue;
  }
}
