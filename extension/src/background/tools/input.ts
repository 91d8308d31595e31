import { BridgeError, ErrorCode, textResult } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import type { Handler } from '../handlerContext';
import { actionReport } from './actionReport';
import { clickPoint, type Point } from './clickPoint';
import { Hint } from './hints';
import { pressDelete, pressEnter, typeSlowly } from './keyboard';
import { watchWhile } from './navigationWatch';
import { releaseElement, resolveRef } from './resolveRef';
import { settle } from './settle';
import { oneLine } from './text';

const MAX_ECHO_CHARS = 100;

export const click: Handler<'browser_click'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const element = await resolveRef(tab, args.ref);
  try {
    const [point, watch] = await watchWhile(tab.cdp, clickPoint(tab, element));
    await mouseClick(tab.cdp, point, args.doubleClick === true ? 2 : 1);
    const outcome = await settle(tab.cdp, watch);
    const verb = args.doubleClick === true ? 'Double-clicked' : 'Clicked';
    return textResult(await actionReport(tab.cdp, `${verb} ${element.label}.`, outcome));
  } finally {
    releaseElement(tab, element);
  }
};

async function mouseClick(cdp: CdpClient, { x, y }: Point, clicks: 1 | 2): Promise<void> {
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  // A double click is two presses, the second with clickCount 2: pages see click, click, dblclick.
  for (let clickCount = 1; clickCount <= clicks; clickCount += 1) {
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x,
      y,
      button: 'left',
      buttons: 1,
      clickCount,
    });
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x,
      y,
      button: 'left',
      buttons: 0,
      clickCount,
    });
  }
}

// Runs on the element after focus: checks it takes typed text and selects what it holds, so the
// typed text replaces it.
const PREPARE_FIELD_FUNCTION = `function () {
  const textInputs = ['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number'];
  const el = this;
  if (el.localName === 'input' || el.localName === 'textarea') {
    const type = el.localName === 'input' ? el.type : '';
    if (el.localName === 'input' && !textInputs.includes(type)) return { reason: 'it is an <input type=' + type + '>' };
    if (el.disabled) return { reason: 'it is disabled' };
    if (el.readOnly) return { reason: 'it is read-only' };
    el.select();
    return { ok: true, password: type === 'password' };
  }
  if (el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return { ok: true, password: false };
  }
  return { reason: 'it is not a text field' };
}`;

interface FieldCheck {
  ok: boolean;
  password: boolean;
  reason: string;
}

export const type: Handler<'browser_type'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  const { cdp } = tab;
  const element = await resolveRef(tab, args.ref);
  try {
    const notEditable = (why: string): BridgeError =>
      new BridgeError(
        ErrorCode.NOT_EDITABLE,
        `Cannot type into ${element.label}: ${why}.`,
        Hint.notEditable,
      );
    const prepareField = async (): Promise<FieldCheck> => {
      await cdp.send('DOM.focus', { backendNodeId: element.entry.backendNodeId }).catch(() => {
        throw notEditable('it cannot take focus');
      });
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: element.objectId,
        functionDeclaration: PREPARE_FIELD_FUNCTION,
        returnByValue: true,
      });
      const field = asFieldCheck(result.value);
      if (!field.ok) throw notEditable(field.reason);
      return field;
    };
    const [field, watch] = await watchWhile(cdp, prepareField());
    if (args.text === '') await pressDelete(cdp);
    else if (args.slowly === true) await typeSlowly(cdp, args.text);
    else await cdp.send('Input.insertText', { text: args.text });
    if (args.submit === true) await pressEnter(cdp);
    const outcome = await settle(cdp, watch);

    const what = field.password
      ? `${[...args.text].length} characters`
      : JSON.stringify(oneLine(args.text, MAX_ECHO_CHARS));
    const submitted = args.submit === true ? ' and pressed Enter' : '';
    return textResult(
      await actionReport(cdp, `Typed ${what} into ${element.label}${submitted}.`, outcome),
    );
  } finally {
    releaseElement(tab, element);
  }
};

const NOT_A_FIELD = 'it is not a text field';

function asFieldCheck(value: unknown): FieldCheck {
  const record: Record<string, unknown> =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return {
    ok: record.ok === true,
    password: record.password === true,
    reason: typeof record.reason === 'string' ? record.reason.slice(0, 200) : NOT_A_FIELD,
  };
}
