import { findContract, type LoggedCall, type ToolName } from '@browser-agent/protocol';

function line(c: LoggedCall): string {
  const outcome = c.code === undefined ? 'no answer (cut off)' : c.code;
  const ms = c.ms === undefined ? '' : ` (${c.ms} ms)`;
  return `- ${c.t.slice(11, 19)} ${c.tool} ${c.args} → ${outcome}${ms}`;
}

/**
 * What an agent whose session was resumed (its MCP server or the daemon restarted) needs to
 * carry on: the session's last calls from the write-ahead log. Shown once, with the first result
 * after the resume, and in every browser_session_info since.
 */
export class ResumeNotice {
  #calls: LoggedCall[] | undefined;
  #unseen = false;

  resumed(calls: LoggedCall[]): void {
    this.#calls = calls;
    this.#unseen = true;
  }

  /** The notice for this call's response, if it gets one. */
  note(action: ToolName): string | undefined {
    const calls = this.#calls;
    const always = findContract(action)?.repeatsResumeNotice === true;
    if (calls === undefined || (!this.#unseen && !always)) return undefined;
    this.#unseen = false;
    const text =
      calls.length === 0
        ? 'This session was resumed after a restart; the log holds no earlier calls of it.'
        : [
            `This session was resumed after a restart (same tabs and transaction). Its last ${calls.length} call(s) before that, from the write-ahead log:`,
            ...calls.map(line),
          ].join('\n');
    return text;
  }
}
