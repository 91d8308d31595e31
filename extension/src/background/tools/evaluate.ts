/** Evaluate area's handler: run JavaScript in the page or on one element (browser_evaluate). */
import { BridgeError, ErrorCode, textResult, type EvaluateOutput } from '@browser-agent/protocol';
import type { Protocol } from 'devtools-protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import { elementCdp } from '../elements/elementCdp';
import { Hint } from '../common/hints';
import { releaseElement } from '../elements/resolveRef';
import { resolveTarget } from '../elements/target';
import { capText, untrustedSection } from '../common/text';
import { isPlainJson, valueJson, valueText, type DeepValue } from '../common/jsValue';

const MAX_RESULT_CHARS = 50_000;
const MAX_ERROR_CHARS = 2_000;
/** How deep objects are described; deeper ones show as `{…}` (a JSON API answer fits well). */
const MAX_DEPTH = 16;
/** The page keeps the result objects until this group is released, right after the answer. */
const OBJECT_GROUP = 'browser-agent-evaluate';
/**
 * V8's own deep serialization instead of returnByValue's JSON, which turned NaN into null, Maps
 * and DOM nodes into {} and dropped BigInt and -0 (common/jsValue.ts). Nodes are described by
 * themselves, without their subtree.
 */
const SERIALIZATION: Protocol.Runtime.SerializationOptions = {
  serialization: 'deep',
  maxDepth: MAX_DEPTH,
  additionalParameters: { maxNodeDepth: 0, includeShadowTree: 'none' },
};

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
        .send('Runtime.evaluate', {
          expression: source,
          awaitPromise: true,
          objectGroup: OBJECT_GROUP,
          serializationOptions: SERIALIZATION,
        })
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
          objectGroup: OBJECT_GROUP,
          serializationOptions: SERIALIZATION,
        })
        .catch(protocolFailure);
    } finally {
      releaseElement(tab, element);
    }
  }
  // The values were serialized in the answer; nothing in the page needs to stay alive for them.
  void cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
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
  const deep = deepValueOf(evaluation.result);
  const full = renderValue(evaluation.result);
  const rendered = capText(full, MAX_RESULT_CHARS);
  return textResult(
    untrustedSection('Result', rendered, isPlainJson(deep) ? 'json' : 'js'),
    structuredValue(evaluation.result, deep),
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

/** The deep-serialized value of a result; a stand-in made from its type when Chrome gave none. */
function deepValueOf(result: Protocol.Runtime.RemoteObject): DeepValue {
  if (result.deepSerializedValue !== undefined) return result.deepSerializedValue;
  if (result.subtype === 'null') return { type: 'null' };
  if (result.unserializableValue !== undefined) {
    const raw = result.unserializableValue;
    return result.type === 'bigint'
      ? { type: 'bigint', value: raw.replace(/n$/, '') }
      : { type: 'number', value: raw };
  }
  if (result.type === 'object' && result.value === undefined) return { type: 'object' };
  return toDeep(result.value, result.type);
}

/** A plain JSON value (a fake's or an old browser's returnByValue answer) as a DeepValue. */
function toDeep(value: unknown, type?: string): DeepValue {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return { type: 'array', value: value.map((v) => toDeep(v)) };
  if (typeof value === 'object')
    return { type: 'object', value: Object.entries(value).map(([k, v]) => [k, toDeep(v)]) };
  if (value === undefined) return { type: type ?? 'undefined' };
  return { type: typeof value, value };
}

/** The result as data: the value itself, cut to the text's size when the text was cut. */
function structuredValue(result: Protocol.Runtime.RemoteObject, deep: DeepValue): EvaluateOutput {
  const type = result.subtype === 'null' ? 'null' : result.type;
  const { json, truncated } = valueJson(deep, MAX_RESULT_CHARS);
  return { type, value: json, truncated };
}

/** The result's text: JSON for JSON values, a JavaScript-like form for the rest (jsValue.ts). */
export function renderValue(result: Protocol.Runtime.RemoteObject): string {
  const deep = deepValueOf(result);
  // Errors, functions and symbols carry nothing but their description ("TypeError: …").
  if (['error', 'function', 'symbol'].includes(deep.type) && result.description !== undefined)
    return result.description;
  return valueText(deep);
}

/** The evaluate area's handlers, by tool name. */
export const evaluateHandlers = {
  browser_evaluate: evaluate,
} satisfies AreaHandlers;
