/** One line of `browser-agent-mcp doctor`: a part of the chain and its state. */
export type CheckStatus = 'ok' | 'info' | 'warn' | 'fail';

export interface Check {
  id: string;
  status: CheckStatus;
  summary: string;
  /** The one thing to do, on warn and fail. */
  fix?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

export interface DoctorOptions {
  env: NodeJS.ProcessEnv;
  executablePath?: string | undefined;
}
