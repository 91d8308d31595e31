/**
 * A page's JavaScript value, described for the agent (#27): Chrome's deep serialization
 * (Runtime.DeepSerializedValue) keeps what JSON loses — NaN, ±Infinity, -0, BigInt, undefined,
 * Maps and Sets, DOM nodes, dates, regular expressions, repeated and circular references — and
 * is made by V8 itself, so a page that redefines toJSON or Array.prototype cannot change it.
 *
 * Two forms come out of one value: `text`, a JavaScript-like rendering (plain JSON values print
 * exactly as JSON.stringify(value, null, 2) would, so a JSON result reads as before), and `json`,
 * a JSON value for structuredContent where whatever JSON cannot hold is an object tagged with
 * `$type` (`{"$type":"number","value":"NaN"}`, `{"$type":"map","entries":[[k, v]]}`).
 */

/** Chrome's Runtime.DeepSerializedValue, as far as this file reads it. */
export interface DeepValue {
  type: string;
  value?: unknown;
  weakLocalObjectReference?: number;
}

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Attributes of an element shown in its one-line description, in this order. */
const SHOWN_ATTRIBUTES = ['id', 'class', 'name', 'type', 'href', 'src', 'role', 'aria-label'];
const MAX_ATTRIBUTE_CHARS = 80;

function isDeepValue(v: unknown): v is DeepValue {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

function list(v: DeepValue): DeepValue[] {
  return Array.isArray(v.value) ? v.value.filter(isDeepValue) : [];
}

/** Key/value pairs of an object or a Map (keys are strings or serialized values). */
function pairs(v: DeepValue): [string | DeepValue, DeepValue][] {
  if (!Array.isArray(v.value)) return [];
  const out: [string | DeepValue, DeepValue][] = [];
  for (const entry of v.value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [key, value] = entry as [unknown, unknown];
    if ((typeof key === 'string' || isDeepValue(key)) && isDeepValue(value)) out.push([key, value]);
  }
  return out;
}

/** One line for a DOM node: `<button id="send" class="primary">`, `#text "Hi"`. */
export function describeNode(value: unknown): string {
  const node = (typeof value === 'object' && value !== null ? value : {}) as {
    nodeType?: number;
    localName?: string;
    nodeValue?: string;
    attributes?: Record<string, unknown>;
  };
  if (node.nodeType === 1 && typeof node.localName === 'string') {
    const attributes = node.attributes ?? {};
    const shown = SHOWN_ATTRIBUTES.filter((name) => typeof attributes[name] === 'string').map(
      (name) => {
        const raw = String(attributes[name]);
        const cut =
          raw.length > MAX_ATTRIBUTE_CHARS ? `${raw.slice(0, MAX_ATTRIBUTE_CHARS)}…` : raw;
        return ` ${name}=${JSON.stringify(cut)}`;
      },
    );
    return `<${node.localName}${shown.join('')}>`;
  }
  if (node.nodeType === 3)
    return `#text ${JSON.stringify(String(node.nodeValue ?? '').slice(0, 80))}`;
  if (node.nodeType === 8) return '#comment';
  if (node.nodeType === 9) return '#document';
  if (node.nodeType === 11) return '#document-fragment';
  return '#node';
}

function regexpText(value: unknown): string {
  const r = (value ?? {}) as { pattern?: unknown; flags?: unknown };
  return `/${typeof r.pattern === 'string' ? r.pattern : ''}/${typeof r.flags === 'string' ? r.flags : ''}`;
}

function specialNumber(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The JavaScript-like text of a value; plain JSON prints as JSON.stringify(v, null, 2). */
export function valueText(v: DeepValue, indent = ''): string {
  const inner = `${indent}  `;
  const block = (open: string, items: string[], close: string): string =>
    items.length === 0
      ? `${open}${close}`
      : `${open}\n${inner}${items.join(`,\n${inner}`)}\n${indent}${close}`;
  if (v.weakLocalObjectReference !== undefined && v.value === undefined && isContainer(v.type))
    return '[Circular or repeated reference]';
  switch (v.type) {
    case 'undefined':
      return 'undefined';
    case 'null':
      return 'null';
    case 'string':
      return JSON.stringify(String(v.value));
    case 'boolean':
      return String(v.value === true);
    case 'number':
      return specialNumber(v.value) ?? JSON.stringify(v.value);
    case 'bigint':
      return `${String(v.value)}n`;
    case 'date':
      return `Date(${JSON.stringify(String(v.value))})`;
    case 'regexp':
      return regexpText(v.value);
    case 'node':
      return describeNode(v.value);
    case 'array':
      if (v.value === undefined) return '[…]';
      return block(
        '[',
        list(v).map((item) => valueText(item, inner)),
        ']',
      );
    case 'object':
      if (v.value === undefined) return '{…}';
      return block(
        '{',
        pairs(v).map(([k, item]) => `${keyText(k)}: ${valueText(item, inner)}`),
        '}',
      );
    case 'map': {
      const entries = pairs(v);
      if (v.value === undefined) return 'Map {…}';
      return block(
        `Map(${entries.length}) {`,
        entries.map(
          ([k, item]) =>
            `${typeof k === 'string' ? JSON.stringify(k) : valueText(k, inner)} => ${valueText(item, inner)}`,
        ),
        '}',
      );
    }
    case 'set': {
      const items = list(v);
      if (v.value === undefined) return 'Set {…}';
      return block(
        `Set(${items.length}) {`,
        items.map((item) => valueText(item, inner)),
        '}',
      );
    }
    default:
      return typeLabel(v.type);
  }
}

function isContainer(type: string): boolean {
  return type === 'array' || type === 'object' || type === 'map' || type === 'set';
}

function keyText(k: string | DeepValue): string {
  return typeof k === 'string' ? JSON.stringify(k) : `[${valueText(k)}]`;
}

/** `Promise`, `WeakMap`, `Window`: what is left of a value no form of data can carry. */
function typeLabel(type: string): string {
  const labels: Record<string, string> = {
    function: 'function',
    symbol: 'Symbol()',
    weakmap: 'WeakMap',
    weakset: 'WeakSet',
    error: 'Error',
    proxy: 'Proxy',
    promise: 'Promise',
    typedarray: 'TypedArray',
    arraybuffer: 'ArrayBuffer',
    window: 'Window',
    generator: 'Generator',
  };
  return labels[type] ?? type;
}

/** Whether the value is plain JSON through and through (it then prints exactly as JSON). */
export function isPlainJson(v: DeepValue): boolean {
  switch (v.type) {
    case 'null':
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return typeof v.value === 'number';
    case 'array':
      return v.value !== undefined && list(v).every(isPlainJson);
    case 'object':
      return (
        v.value !== undefined &&
        pairs(v).every(([k, item]) => typeof k === 'string' && isPlainJson(item))
      );
    default:
      return false;
  }
}

/**
 * The value as JSON for structuredContent, within about `budget` characters: past it, strings are
 * cut and containers end early, and `truncated` says so (the value is kept, not dropped).
 */
export function valueJson(
  root: DeepValue,
  budget: number,
): { json: JsonValue; truncated: boolean } {
  let left = budget;
  let truncated = false;
  const spend = (n: number): boolean => {
    left -= n;
    if (left < 0) truncated = true;
    return left >= 0;
  };
  const walk = (v: DeepValue): JsonValue => {
    if (v.weakLocalObjectReference !== undefined && v.value === undefined && isContainer(v.type))
      return { $type: 'reference' };
    switch (v.type) {
      case 'null':
        spend(4);
        return null;
      case 'string': {
        const s = String(v.value);
        if (spend(s.length + 2)) return s;
        const keep = Math.max(0, s.length + left);
        return `${s.slice(0, keep)}…`;
      }
      case 'boolean':
        spend(5);
        return v.value === true;
      case 'number':
        spend(8);
        return typeof v.value === 'number' ? v.value : { $type: 'number', value: String(v.value) };
      case 'bigint':
        spend(String(v.value).length + 24);
        return { $type: 'bigint', value: String(v.value) };
      case 'undefined':
        spend(20);
        return { $type: 'undefined' };
      case 'date':
      case 'regexp':
      case 'node': {
        const text =
          v.type === 'date'
            ? String(v.value)
            : v.type === 'regexp'
              ? regexpText(v.value)
              : describeNode(v.value);
        spend(text.length + 24);
        return { $type: v.type, value: text };
      }
      case 'array':
      case 'set': {
        if (v.value === undefined) return { $type: v.type, depthLimit: true };
        const out: JsonValue[] = [];
        for (const item of list(v)) {
          if (!spend(2)) break;
          out.push(walk(item));
          if (left < 0) break;
        }
        return v.type === 'array' ? out : { $type: 'set', values: out };
      }
      case 'object': {
        if (v.value === undefined) return { $type: 'object', depthLimit: true };
        const out: { [key: string]: JsonValue } = {};
        for (const [k, item] of pairs(v)) {
          if (typeof k !== 'string' || !spend(k.length + 4)) {
            if (left < 0) break;
            continue;
          }
          out[k] = walk(item);
          if (left < 0) break;
        }
        return out;
      }
      case 'map': {
        if (v.value === undefined) return { $type: 'map', depthLimit: true };
        const entries: JsonValue[] = [];
        for (const [k, item] of pairs(v)) {
          if (!spend(4)) break;
          entries.push([typeof k === 'string' ? k : walk(k), walk(item)]);
          if (left < 0) break;
        }
        return { $type: 'map', entries };
      }
      default:
        spend(v.type.length + 12);
        return { $type: v.type };
    }
  };
  const json = walk(root);
  return { json, truncated };
}
