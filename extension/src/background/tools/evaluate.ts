/** Evaluate area's handler: run JavaScript in the page or on one element (browser_evaluate). */
import { BridgeError, ErrorCode, textResult, type EvaluateOutput } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { elementCdp } from '../elements/elementCdp';
import { Hint } from '../common/hints';
import { releaseElement } from '../elements/resolveRef';
import { resolveTarget } from '../elements/target';
import { capText, untrustedSection } from '../common/text';

const MAX_RESULT_CHARS = 50_000;
const MAX_ERROR_CHARS = 2_000;

type Evaluation = Protocol.Runtime.EvaluateResponse;

export const evaluate: Handler<'browser_evaluate'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cdp } = tab;
  let evaluation: Evaluation;
  const hasTarget =
    args.ref !== undefined || args.selector !== undefined || args.role !== undefined;
  if (!hasTarget) {
    // A function is called; any other expression (Playwright MCP's "document.title") is its
    // value. The newline keeps a trailing // comment in the source from swallowing the call.
    const expression = `(() => { const value = (${args.function}\n); return typeof value === 'function' ? value() : value; })()`;
    const run = (source: string): Promise<Evaluation> =>
      cdp
        .send('Runtime.evaluate', { expression: source, awaitPromise: true, returnByValue: true })
        .catch(protocolFailure);
    evaluation = await run(expression);
    // Statements ("const a = 1; a + 1") are no expression: run as a script, its last value.
    if (evaluation.exceptionDetails?.exception?.className === 'SyntaxError') {
      const asScript = await run(args.function);
      if (asScript.exceptionDetails?.exception?.className !== 'SyntaxError') evaluation = asScript;
    }
  } else {
    const element = await resolveTarget(tab, args);
    try {
      evaluation = await elementCdp(tab, element)
        .send('Runtime.callFunctionOn', {
          functionDeclaration: args.function,
          objectId: element.objectId,
          arguments: [{ objectId: element.objectId }],
          awaitPromise: true,
          returnByValue: true,
        })
        .catch(protocolFailure);
    } finally {
      releaseElement(tab, element);
    }
  }
  if (evaluation.exceptionDetails !== undefined) {
    const details = evaluation.exceptionDetails;
    const text = details.exception?.description ?? details.text;
    // The exception's text is the page's to choose (a page can throw a forged "### Result"):
    // fenced like every other page string.
    throw new BridgeError(
      ErrorCode.EVALUATION_FAILED,
      `The function threw.\n${untrustedSection('Exception', capText(text, MAX_ERROR_CHARS))}`,
      Hint.evaluateFunction,
    );
  }
  const full = renderValue(evaluation.result);
  const rendered = capText(full, MAX_RESULT_CHARS);
  return textResult(
    untrustedSection('Result', rendered, 'json'),
    structuredValue(evaluation.result, full.length > MAX_RESULT_CHARS),
  );
};

/** Chrome rejects some sources outright (e.g. a non-function given with a ref). */
function protocolFailure(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  throw new BridgeError(
    ErrorCode.EVALUATION_FAILED,
    `Could not run the function: ${message}`,
    Hint.evaluateFunction,
  );
}

/** The result as data: the value itself, unless it is too large to repeat beside the text. */
function structuredValue(
  result: Protocol.Runtime.RemoteObject,
  truncated: boolean,
): EvaluateOutput {
  const type = result.subtype === 'null' ? 'null' : result.type;
  const value: unknown = result.value;
  if (truncated || value === undefined) return { type, truncated };
  return { type, value, truncated };
}

export function renderValue(result: Protocol.Runtime.RemoteObject): string {
  if (result.type === 'undefined') return 'undefined';
  if (result.unserializableValue !== undefined) return result.unserializableValue;
  const value: unknown = result.value;
  // Functions and symbols have no JSON form; their description is the best there is.
  if (value === undefined) return result.description ?? result.type;
  return JSON.stringify(value, null, 2);
}

/** The evaluate area's handlers, by tool name. */
export const evaluateHandlers = {
  browser_evaluate: evaluate,
} satisfies AreaHandlers;
