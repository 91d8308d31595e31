/**
 * Verify area's handlers (group `testing`): assertions that pass with "Done" and the element
 * that satisfied them, or fail with VERIFY_FAILED saying what the page has instead; and a
 * Playwright locator for an element.
 */
import {
  BridgeError,
  ErrorCode,
  textResult,
  type LocatorOutput,
  type VerifyOutput,
} from '@browser-agent/protocol';
import type { AreaHandlers, Handler } from '../handlerContext';
import type { RefEntry } from '../tabStates';
import { Hint } from '../common/hints';
import { oneLine, quoted, untrustedSection } from '../common/text';
import { elementCdp } from '../elements/elementCdp';
import { fieldState, missingItems } from '../elements/fieldState';
import { describeEntry } from '../elements/resolveRef';
import { matchesIn } from '../elements/target';
import { withElement } from '../elements/withElement';
import { assertNoDialog } from '../recorders/dialogs';

/** The structured result of a passed assertion: the element that satisfied it. */
function passed(entry: RefEntry): VerifyOutput {
  return { passed: true, element: { ref: entry.ref, role: entry.role, name: entry.name } };
}

function locatorData(locator: string, entry: RefEntry): LocatorOutput {
  return { locator, element: { ref: entry.ref, role: entry.role, name: entry.name } };
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

function failed(message: string): BridgeError {
  return new BridgeError(ErrorCode.VERIFY_FAILED, message, Hint.waitSnapshot);
}

/** Visible elements of the role whose name is the given one, else those whose name holds it. */
async function visibleByRole(
  tab: Parameters<typeof matchesIn>[0],
  role: string,
  name: string,
): Promise<RefEntry[]> {
  const what = `role ${quoted(oneLine(role, 100))}`;
  const all = await matchesIn(tab, `byRole(${JSON.stringify(role)}, undefined)`, what);
  const exact = all.filter((entry) => entry.name === name);
  if (exact.length > 0) return exact;
  const wanted = squash(name);
  return all.filter((entry) => squash(entry.name).includes(wanted));
}

export const verifyElementVisible: Handler<'browser_verify_element_visible'> = async (
  args,
  ctx,
) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  const found = await visibleByRole(tab, args.role, args.accessibleName);
  const first = found[0];
  if (first === undefined) {
    throw failed(
      `Element with role ${quoted(oneLine(args.role, 100))} and accessible name ${quoted(oneLine(args.accessibleName, 200))} not found.`,
    );
  }
  return textResult(`Done: ${describeEntry(first)} is visible.`, passed(first));
};

export const verifyTextVisible: Handler<'browser_verify_text_visible'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  assertNoDialog(tab);
  const text = quoted(oneLine(args.text, 200));
  const found = await matchesIn(tab, `byText(${JSON.stringify(args.text)})`, `text ${text}`);
  const first = found[0];
  if (first === undefined) throw failed(`Text not found: ${text} is not visible on the page.`);
  return textResult(`Done: ${text} is visible in ${describeEntry(first)}.`, passed(first));
};

export const verifyListVisible: Handler<'browser_verify_list_visible'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return withElement(tab, args, async (element) => {
    const missing = await missingItems(tab, element, args.items);
    const item = missing[0];
    if (item !== undefined) {
      const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : '';
      throw failed(`Item ${quoted(oneLine(item, 200))} not found in ${element.label}${more}.`);
    }
    return textResult(
      `Done: ${element.label} shows all ${args.items.length} item(s).`,
      passed(element.entry),
    );
  });
};

export const verifyValue: Handler<'browser_verify_value'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return withElement(tab, args, async (element) => {
    const state = await fieldState(tab, element, args.value);
    const expected = quoted(oneLine(args.value, 200));
    const wantsChecked = args.type === 'checkbox' || args.type === 'radio';
    if (state.kind === 'secret') {
      // The same answer whatever was guessed: nothing to tell a right guess from a wrong one by.
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `${element.label} is a secret field (a password, one-time code or card field); its value is never compared.`,
        'Check what the page does with it instead (a sign-in that succeeds), or verify another field.',
      );
    }
    if (state.kind === 'none' || (wantsChecked && state.kind !== 'checked')) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `${element.label} has no ${wantsChecked ? 'checked state' : 'value'} to verify.`,
        'Target a text field, checkbox, radio, select or slider.',
      );
    }
    if (state.kind === 'checked') {
      const want = args.value.trim().toLowerCase();
      if (want !== 'true' && want !== 'false') {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `${element.label} is checked or not; the value to verify is "true" or "false", not ${expected}.`,
          'Pass "true" for checked, "false" for unchecked.',
        );
      }
      if (state.checked !== (want === 'true')) {
        throw failed(
          `Expected value ${quoted(want)}, but got "${String(state.checked)}" (${element.label}).`,
        );
      }
      return textResult(
        `Done: ${element.label} is ${state.checked ? 'checked' : 'unchecked'}.`,
        passed(element.entry),
      );
    }
    if (!state.equals) {
      const label =
        state.label !== undefined && state.label !== state.value
          ? ` (option ${quoted(oneLine(state.label, 200))})`
          : '';
      throw failed(
        `Expected value ${expected}, but got ${quoted(oneLine(state.value, 200))}${label} (${element.label}).`,
      );
    }
    return textResult(`Done: ${element.label} has the value ${expected}.`, passed(element.entry));
  });
};

/** Roles that say nothing about an element: a nameless one is located by its text. */
const TEXT_ROLES: ReadonlySet<string> = new Set([
  'generic',
  'paragraph',
  'text',
  'listitem',
  'cell',
]);

/** A string literal as Playwright's code generator writes one: single quotes, escaped. */
function jsString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

export const generateLocator: Handler<'browser_generate_locator'> = async (args, ctx) => {
  const tab = await ctx.currentTab();
  return withElement(tab, args, async (element) => {
    const { role, name, ref } = element.entry;
    if (name === '' && TEXT_ROLES.has(role)) {
      // No role a test could name it by: its text is what the user sees, and what tests use.
      const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
        objectId: element.objectId,
        functionDeclaration:
          'function () { return (this.innerText || "").replace(/\\s+/g, " ").trim(); }',
        returnByValue: true,
      });
      const text = typeof result.value === 'string' ? result.value.slice(0, 200) : '';
      if (text !== '') {
        const locator = `getByText(${jsString(text)}, { exact: true })`;
        return textResult(
          untrustedSection(`Locator for ${element.label}`, locator, 'js'),
          locatorData(locator, element.entry),
        );
      }
    }
    const what = `role ${quoted(role)}`;
    const call = `byRole(${JSON.stringify(role)}, ${name === '' ? 'undefined' : JSON.stringify(name)})`;
    const peers = await matchesIn(tab, call, what);
    const index = peers.findIndex((peer) => peer.ref === ref);
    let locator = `getByRole(${jsString(role)}${name === '' ? '' : `, { name: ${jsString(name)}, exact: true }`})`;
    if (peers.length > 1 && index >= 0) locator += `.nth(${index})`;
    return textResult(
      untrustedSection(`Locator for ${element.label}`, locator, 'js'),
      locatorData(locator, element.entry),
    );
  });
};

/** The verify area's handlers, by tool name. */
export const verifyHandlers = {
  browser_verify_element_visible: verifyElementVisible,
  browser_verify_text_visible: verifyTextVisible,
  browser_verify_list_visible: verifyListVisible,
  browser_verify_value: verifyValue,
  browser_generate_locator: generateLocator,
} satisfies AreaHandlers;
