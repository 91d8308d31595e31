import { ErrorCode } from '@browser-agent/protocol';

/**
 * A failed call's error code in words, for the person reading the panel's log ("failed: the
 * element was not found"); the code itself stays in the entry's details for whoever needs it.
 */
const WORDS: Record<ErrorCode, string> = {
  [ErrorCode.NOT_CONNECTED]: 'the browser was not connected',
  [ErrorCode.TIMEOUT]: 'it took too long',
  [ErrorCode.INVALID_ARGS]: 'the agent sent arguments that do not fit',
  [ErrorCode.INVALID_FRAME]: 'a message was malformed',
  [ErrorCode.VERSION_MISMATCH]: 'the bridge and the extension are different versions',
  [ErrorCode.UNKNOWN_ACTION]: 'this extension does not know that tool',
  [ErrorCode.STALE_REF]: 'the page changed since the agent looked at it',
  [ErrorCode.ELEMENT_NOT_FOUND]: 'the element was not found',
  [ErrorCode.AMBIGUOUS_TARGET]: 'more than one element matched',
  [ErrorCode.FILE_NOT_FOUND]: 'the file was not found',
  [ErrorCode.NOT_VISIBLE]: 'the element is not visible',
  [ErrorCode.NOT_EDITABLE]: 'the element cannot be typed into',
  [ErrorCode.NO_TAB]: 'the agent has no tab',
  [ErrorCode.TAB_CLOSED]: 'the tab was closed',
  [ErrorCode.DIALOG_OPEN]: 'a dialog is open on the page',
  [ErrorCode.DEBUGGER_DETACHED]: 'the extension lost its hold on the tab',
  [ErrorCode.NAVIGATION_FAILED]: 'the page did not load',
  [ErrorCode.NAVIGATION_TIMEOUT]: 'the page took too long to load',
  [ErrorCode.RESTRICTED_URL]: 'agents may not open that kind of page',
  [ErrorCode.BLOCKED_URL]: 'that site is blocked for agents',
  [ErrorCode.EVALUATION_FAILED]: 'the script failed on the page',
  [ErrorCode.NOT_OWNER]: 'the tab belongs to someone else',
  [ErrorCode.SESSION_ENDED]: 'the agent’s session had ended',
  [ErrorCode.NOT_REGISTERED]: 'the agent was not registered',
  [ErrorCode.NOT_PAIRED]: 'the browser is not paired',
  [ErrorCode.PAUSED]: 'the agent is paused',
  [ErrorCode.REVOKED]: 'the agent’s access was revoked',
  [ErrorCode.USER_DENIED]: 'you said no',
  [ErrorCode.APPROVAL_TIMEOUT]: 'nobody answered the question in time',
  [ErrorCode.LAUNCH_FAILED]: 'the browser could not be started',
  [ErrorCode.BROWSER_IN_USE]: 'the browser is in use by another setup',
  [ErrorCode.CANCELLED]: 'it was stopped',
  [ErrorCode.VERIFY_FAILED]: 'the page was not as the agent expected',
  [ErrorCode.INTERNAL]: 'something went wrong inside Browser Agent',
};

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(WORDS, code);
}

/** "the element was not found"; a code this release does not know is shown as it is. */
export function errorWords(code: string): string {
  return isErrorCode(code) ? WORDS[code] : code;
}
