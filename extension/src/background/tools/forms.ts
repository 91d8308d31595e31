/** Forms area's handlers: fill a form, select options, upload files. */
import { BridgeError, ErrorCode, textResult, type ToolResult } from '@browser-agent/protocol';
import type { AreaHandlers, Handler, HandlerContext } from '../handlerContext';
import type { TabHandle } from '../tabStates';
import { armedWhile, performAction } from '../acting/action';
import { clickPoint } from '../elements/clickPoint';
import { assertNoDialog } from '../recorders/dialogs';
import { rememberTypedSecret } from '../recorders/requestSecrets';
import { closeFileChooser, inputAnswered, openFileChooser } from '../recorders/fileChoosers';
import { elementCdp } from '../elements/elementCdp';
import { Hint } from '../common/hints';
import { echo, prepareField, typeText } from '../acting/typing';
import { withElement } from '../elements/withElement';
import { mouseClick } from '../acting/mouse';
import {
  describeEntry,
  releaseElement,
  stepOnEntry,
  type ElementHandle,
} from '../elements/resolveRef';
import { resolveModelTarget, targetEntry } from '../elements/target';
import { oneLine } from '../common/text';
import { UPLOAD_ORIGIN_PREFIX } from '../common/constants';

/** DOM attributes arrive flattened as [name, value, name, value, …]. */
function attribute(flat: readonly string[] | undefined, name: string): string | undefined {
  if (flat === undefined) return undefined;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if (flat[i]?.toLowerCase() === name) return flat[i + 1];
  }
  return undefined;
}

// Runs on a <select>: picks the options whose value or label is asked for, fires input and change.
const SELECT_FUNCTION = `function (wanted) {
  if (this.localName !== 'select') return { error: 'it is not a <select>' };
  if (this.disabled) return { error: 'it is disabled' };
  const options = [...this.options];
  const picked = [];
  for (const w of wanted) {
    const o = options.find((o) => o.value === w || o.label === w || o.textContent.trim() === w);
    if (!o) return { error: 'it has no option ' + JSON.stringify(w) + '; options: ' + options.map((o) => JSON.stringify(o.label)).join(', ') };
    picked.push(o);
  }
  if (!this.multiple && picked.length > 1) return { error: 'it takes one option' };
  for (const o of options) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { labels: picked.map((o) => o.label) };
}`;

async function selectIn(
  tab: TabHandle,
  element: ElementHandle,
  values: readonly string[],
): Promise<string[]> {
  const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: SELECT_FUNCTION,
    arguments: [{ value: values }],
    returnByValue: true,
  });
  return selectedLabels(result.value, element.label);
}

/** The labels SELECT_FUNCTION chose, or the error it answered (undefined: it threw). */
function selectedLabels(value: unknown, label: string): string[] {
  const record =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const error =
    typeof record.error === 'string'
      ? record.error
      : Array.isArray(record.labels)
        ? undefined
        : 'the page threw while the option was chosen';
  if (error !== undefined) {
    throw new BridgeError(
      ErrorCode.NOT_EDITABLE,
      `Cannot select in ${label}: ${oneLine(error, 1000)}.`,
      Hint.notEditable,
    );
  }
  return (record.labels as unknown[]).map((l) => oneLine(String(l), 100));
}

export const selectOption: Handler<'browser_select_option'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  // One page-model call checks the element and chooses in the same task, in the model's world,
  // where the page cannot patch the DOM methods the selection calls (the input and change events
  // reach its listeners all the same). No handle on the element is needed: the page does two
  // evaluates fewer before the action than with one (#26: select was 3x the floor with the main
  // world's handle, six round trips in a row).
  return armedWhile(tab, async (arming) => {
    const entry = await targetEntry(tab, args);
    const label = describeEntry(entry);
    let labels: string[] = [];
    const result = await performAction(
      ctx,
      tab,
      `Selecting in ${label}.`,
      async () => {
        const step = { fn: SELECT_FUNCTION, args: [args.values] };
        labels = selectedLabels(await stepOnEntry(tab, entry, step), label);
      },
      arming,
      // The selection fires input and change in the page's task that runs it: the quiet check
      // can go out with it, as a type's does with its text (a round trip less).
      { checkWithInput: true },
    );
    const first = result.content[0];
    if (first?.type === 'text') {
      first.text = first.text.replace(
        `Selecting in ${label}.`,
        `Selected ${labels.map((l) => JSON.stringify(l)).join(', ')} in ${label}.`,
      );
    }
    return result;
  });
};

// Tells fill_form how to set an element.
const KIND_FUNCTION = `function () {
  const el = this;
  if (el.localName === 'select') return 'select';
  if (el.localName === 'input' && el.type === 'range') return 'range';
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.type + (el.checked ? ':on' : ':off');
  const role = el.getAttribute('role');
  if (role === 'checkbox' || role === 'switch' || role === 'radio') return role + (el.getAttribute('aria-checked') === 'true' ? ':on' : ':off');
  return 'text';
}`;

export const fillForm: Handler<'browser_fill_form'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  // Every target is resolved before anything changes, so a bad one fails the call untouched. On
  // the page model's handles, as select_option's: the page cannot patch the DOM methods and
  // setters that set a select or a slider there (security.md, session 30).
  const elements: ElementHandle[] = [];
  try {
    for (const field of args.fields) elements.push(await resolveModelTarget(tab, field));
    const done: string[] = [];
    const result = await performAction(ctx, tab, 'Filled the form.', async () => {
      for (const [i, field] of args.fields.entries()) {
        const element = elements[i];
        if (element === undefined) continue;
        done.push(await fillOne(tab, element, field.value));
      }
    });
    const first = result.content[0];
    if (first?.type === 'text')
      first.text = first.text.replace('Filled the form.', done.join('\n'));
    return result;
  } finally {
    for (const element of elements) releaseElement(tab, element);
  }
};

async function fillOne(
  tab: TabHandle,
  element: ElementHandle,
  value: string | boolean,
): Promise<string> {
  const { cdp } = tab;
  const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: KIND_FUNCTION,
    returnByValue: true,
  });
  const kind = typeof result.value === 'string' ? result.value : 'text';
  if (kind === 'select') {
    const labels = await selectIn(tab, element, [String(value)]);
    return `- Selected ${labels.map((l) => JSON.stringify(l)).join(', ')} in ${element.label}.`;
  }
  if (kind === 'range')
    return `- Set ${element.label} to ${await setRange(tab, element, String(value))}.`;
  const [control, state] = kind.split(':');
  if (state !== undefined) {
    const want = value === true || value === 'true' || value === 'on' || value === 'checked';
    if ((state === 'on') !== want) {
      if (control === 'radio' && !want) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `${element.label} is a radio button; a radio cannot be set to false.`,
          'Set the option you want to true instead.',
        );
      }
      const point = await clickPoint(tab, element);
      await mouseClick(cdp, point, { clicks: 1, button: 'left', modifiers: 0 });
    }
    return `- ${want ? 'Checked' : 'Unchecked'} ${element.label}.`;
  }
  const text = String(value);
  const field = await prepareField(elementCdp(tab, element), element, true);
  if (field.password) rememberTypedSecret(tab.state, text);
  await typeText(cdp, text, { slowly: false, clear: true });
  return `- Typed ${echo(text, field.password)} into ${element.label}.`;
}

// Runs on an <input type=range>: sets the value as the page's own setter would, then fires
// input and change like a drag of the thumb. Answers the value the slider took (stepped, clamped).
const RANGE_FUNCTION = `function (value) {
  if (this.disabled) return { error: 'it is disabled' };
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(this, value);
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: this.value };
}`;

async function setRange(tab: TabHandle, element: ElementHandle, value: string): Promise<string> {
  if (value.trim() === '' || !Number.isFinite(Number(value))) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `${element.label} is a slider; ${JSON.stringify(oneLine(value, 100))} is not a number.`,
      'Give the slider a number, e.g. "75".',
    );
  }
  const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: RANGE_FUNCTION,
    arguments: [{ value: value.trim() }],
    returnByValue: true,
  });
  const answer: unknown = result.value;
  const record =
    typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  if (typeof record.error === 'string') {
    throw new BridgeError(
      ErrorCode.NOT_EDITABLE,
      `Cannot set ${element.label}: ${record.error}.`,
      Hint.notEditable,
    );
  }
  return JSON.stringify(oneLine(String(record.value), 100));
}

export const fileUpload: Handler<'browser_file_upload'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const hasTarget =
    args.ref !== undefined || args.selector !== undefined || args.role !== undefined;
  if (!hasTarget) return answerFileChooser(ctx, tab, args.paths);
  const paths = args.paths ?? [];
  return withElement(tab, args, async (element) => {
    const { node } = await elementCdp(tab, element).send('DOM.describeNode', {
      backendNodeId: element.entry.backendNodeId,
    });
    const type = attribute(node.attributes, 'type');
    if (node.localName !== 'input' || type?.toLowerCase() !== 'file') {
      throw new BridgeError(
        ErrorCode.NOT_EDITABLE,
        `${element.label} is not an <input type=file>.`,
        `Target the file input itself; browser_find "file" may show it.`,
      );
    }
    const what = filesSet(paths);
    // The origin that receives the files, for the result and the panel's live log.
    const { result: origin } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: ORIGIN_FUNCTION,
      returnByValue: true,
    });
    const to = typeof origin.value === 'string' ? ` ${UPLOAD_ORIGIN_PREFIX}${origin.value}` : '';
    return performAction(ctx, tab, `${what} ${element.label}${to}.`, async () => {
      await elementCdp(tab, element).send('DOM.setFileInputFiles', {
        files: paths,
        backendNodeId: element.entry.backendNodeId,
      });
      inputAnswered(tab, element.entry.backendNodeId);
    });
  });
};

const ORIGIN_FUNCTION = 'function () { return this.ownerDocument.location.origin; }';

function filesSet(paths: readonly string[]): string {
  const names = paths.map((p) => p.split(/[\\/]/).pop() ?? p);
  return names.length === 0
    ? 'Cleared the files of'
    : `Set ${names.map((n) => JSON.stringify(n)).join(', ')} on`;
}

/** browser_file_upload without a target: the open file chooser gets the files, or is cancelled. */
async function answerFileChooser(
  ctx: HandlerContext,
  tab: TabHandle,
  paths: readonly string[] | undefined,
): Promise<ToolResult> {
  assertNoDialog(tab);
  const chooser = openFileChooser(tab);
  if (chooser === undefined) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'No file chooser is open, and no file input was given.',
      "Click the file input (or its button) first to open its chooser, or pass the file input's ref.",
    );
  }
  const { cdp } = tab;
  if (paths === undefined || paths.length === 0) {
    closeFileChooser(tab);
    return textResult('Cancelled the file chooser; no file was chosen.');
  }
  if (chooser.mode === 'selectSingle' && paths.length > 1) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `This file chooser takes one file, not ${paths.length}.`,
      'Pass one path.',
    );
  }
  const resolved = await cdp
    .send('DOM.resolveNode', { backendNodeId: chooser.backendNodeId }, chooser.sessionId)
    .catch(() => undefined);
  const objectId = resolved?.object.objectId;
  if (objectId === undefined) {
    closeFileChooser(tab);
    throw new BridgeError(
      ErrorCode.STALE_REF,
      'The file input that opened the chooser is gone from the page.',
      Hint.waitSnapshot,
    );
  }
  try {
    const { result: origin } = await cdp.send(
      'Runtime.callFunctionOn',
      { objectId, functionDeclaration: ORIGIN_FUNCTION, returnByValue: true },
      chooser.sessionId,
    );
    const to = typeof origin.value === 'string' ? ` ${UPLOAD_ORIGIN_PREFIX}${origin.value}` : '';
    return await performAction(ctx, tab, `${filesSet(paths)} the file chooser${to}.`, async () => {
      await cdp.send(
        'DOM.setFileInputFiles',
        { files: [...paths], backendNodeId: chooser.backendNodeId },
        chooser.sessionId,
      );
      closeFileChooser(tab);
    });
  } finally {
    void cdp.send('Runtime.releaseObject', { objectId }, chooser.sessionId).catch(() => undefined);
  }
}

/** Copy, link or move: whatever the drop target's dropEffect asks for. */
const ANY_DRAG_OPERATION = 1 | 2 | 16;

export const drop: Handler<'browser_drop'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const paths = args.paths ?? [];
  const data = Object.entries(args.data ?? {});
  if (paths.length === 0 && data.length === 0) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      'Nothing to drop: at least one of "paths" or "data" must be provided.',
      'For example {"paths": ["/home/me/a.txt"]} or {"data": {"text/plain": "hello"}}.',
    );
  }
  return withElement(tab, args, async (element) => {
    const point = await clickPoint(tab, element);
    const names = paths.map((p) => JSON.stringify(p.split(/[\\/]/).pop() ?? p));
    const kinds = data.map(([type]) => JSON.stringify(oneLine(type, 100)));
    const what = [...names, ...kinds.map((k) => `${k} data`)].join(', ');
    const { result: origin } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: ORIGIN_FUNCTION,
      returnByValue: true,
    });
    const to = typeof origin.value === 'string' ? ` ${UPLOAD_ORIGIN_PREFIX}${origin.value}` : '';
    return performAction(ctx, tab, `Dropped ${what} on ${element.label}${to}.`, async () => {
      const dragData = {
        items: data.map(([mimeType, text]) => ({ mimeType, data: text })),
        ...(paths.length > 0 ? { files: paths } : {}),
        dragOperationsMask: ANY_DRAG_OPERATION,
      };
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await tab.cdp.send('Input.dispatchDragEvent', { type, ...point, data: dragData });
      }
    });
  });
};

/** The forms area's handlers, by tool name. */
export const formsHandlers = {
  browser_fill_form: fillForm,
  browser_select_option: selectOption,
  browser_file_upload: fileUpload,
  browser_drop: drop,
} satisfies AreaHandlers;
