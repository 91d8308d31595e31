/**
 * The page model's script, evaluated in an isolated world of each frame (page/world.ts), so the
 * page's own scripts can neither see nor tamper with it. Installed once per world: it keeps each
 * element's id in a WeakMap there, so the same element keeps its id (and its ref) across
 * snapshots while the world lives, and a ref can be turned back into its element.
 *
 * The page-side parts are factories that close over nothing outside themselves; they are
 * serialised with Function.prototype.toString and wired together here by parameters, never by
 * module imports, which do not exist in the page.
 */
import { findPrinted, type SecretPrints } from '@browser-agent/protocol';
import { ACTION_ROLES, CONTAINER_ROLES, FIELD_ROLES, READ_ROLES } from './roles';
import { CLICK_LISTENER_EVENTS } from '../common/constants';
import { SECRET_AUTOCOMPLETE, SECRET_FIELD_NAME } from '../../shared/secretKind';
import { makeDomNames } from './domNames';
import { makeDomQuery } from './domQuery';
import { makeDomRoles } from './domRoles';
import { makeDomSecrets } from './domSecrets';
import { makeShadowSelector } from './domSelector';
import { makeDomWalk, type ElementIds } from './domWalk';
import type { CheckedStep, ElementCheck, PageConfig, QueryAnswer, QuietLook } from './wire';

/** What the installed model offers the worker. */
export interface PageModel {
  /** The frame's outline as JSON text of WireNode[]. */
  snapshot(): string;
  element(id: number): Element | undefined;
  idOf(el: Element): number;
  check(id: number): ElementCheck;
  /**
   * check(id), then `step` run on the element (as `this`, with `args`) only when the check shows
   * it is still the element the agent saw: shown, with `role` and `name`. A tool's first
   * page-side step goes out with the check, one round trip instead of two (#26), and a stale or
   * hidden element is never touched.
   */
  checkThen(
    id: number,
    role: string,
    name: string,
    step: (this: Element, ...args: unknown[]) => unknown,
    args: unknown[],
  ): CheckedStep;
  bySelector(selector: string): QueryAnswer;
  byRole(role: string, name: string | undefined): QueryAnswer;
  byText(text: string): QueryAnswer;
  /**
   * Each element's box in its frame's viewport, [x, y, width, height] in CSS px (rounded), null
   * when gone; a frame owner's adds where its content starts, [.., contentX, contentY].
   */
  boxes(ids: number[]): (number[] | null)[];
  /**
   * The page as it is when the event `name` is dispatched on the document (an action's quiet
   * check, in the main world, dispatches it when the DOM went quiet: acting/earlyLook.ts): its
   * outline (as snapshot(), when `withOutline`), title and URL, read here where the page cannot
   * patch them. Null after `capMs` without the event. One round trip for the quiet check and the
   * action's report (#26).
   */
  whenQuiet(name: string, withOutline: boolean, capMs: number): Promise<QuietLook | null>;
  /**
   * Hides (true) or shows again (false) the text of the frame's secret fields, and of the
   * `--secrets` values whose prints are given, for screenshots and PDFs.
   */
  maskSecrets(on: boolean, prints?: SecretPrints | null, print?: boolean): number;
}

const CONFIG: PageConfig = {
  containerRoles: [...CONTAINER_ROLES],
  fieldRoles: [...FIELD_ROLES],
  actionRoles: [...ACTION_ROLES],
  readRoles: [...READ_ROLES],
  secretAutocomplete: SECRET_AUTOCOMPLETE,
  secretFieldName: SECRET_FIELD_NAME,
  clickListenerEvents: CLICK_LISTENER_EVENTS,
};

/** Bumped when the script changes, so a world holding an older model (a reloaded extension) gets the new one. */
const MODEL_KEY = '__browserAgentPageModel_7';

function installPageModel(
  key: string,
  config: PageConfig,
  rolesFactory: typeof makeDomRoles,
  namesFactory: typeof makeDomNames,
  walkFactory: typeof makeDomWalk,
  queryFactory: typeof makeDomQuery,
  selectorFactory: typeof makeShadowSelector,
  secretsFactory: typeof makeDomSecrets,
  printFinder: typeof findPrinted,
): PageModel {
  const scope = globalThis as unknown as Record<string, PageModel | undefined>;
  const installed = scope[key];
  if (installed !== undefined) return installed;
  const byId = new Map<number, WeakRef<Element>>();
  const idOf = new WeakMap<Element, number>();
  let nextId = 1;
  const ids: ElementIds = {
    idOf(el) {
      let id = idOf.get(el);
      if (id === undefined) {
        id = nextId;
        nextId += 1;
        idOf.set(el, id);
        byId.set(id, new WeakRef(el));
      }
      return id;
    },
  };
  const prune = (): void => {
    for (const [id, ref] of byId) if (ref.deref() === undefined) byId.delete(id);
  };
  const roles = rolesFactory();
  const secrets = secretsFactory(config, printFinder);
  const names = namesFactory(roles, secrets);
  const walk = walkFactory(config, roles, names, ids, secrets);
  const query = queryFactory(roles, names, ids, selectorFactory());
  const model: PageModel = {
    snapshot() {
      if (byId.size > 20_000) prune();
      return JSON.stringify(walk(document));
    },
    element: (id) => byId.get(id)?.deref(),
    idOf: (el) => ids.idOf(el),
    check: (id) => query.check(byId.get(id)?.deref()),
    checkThen(id, role, name, step, args) {
      const el = byId.get(id)?.deref();
      const check = query.check(el);
      if (el === undefined || check.state !== 'shown' || check.role !== role || check.name !== name)
        return { check };
      try {
        return { check, value: step.apply(el, args) };
      } catch {
        // The tool takes its first step again the usual way, and meets the error there.
        return { check };
      }
    },
    bySelector: (selector) => query.bySelector(document, selector),
    byRole: (role, name) => query.byRole(document, role, name),
    byText: (text) => query.byText(document, text),
    boxes: (list) =>
      list.map((id) => {
        const el = byId.get(id)?.deref();
        if (el === undefined || !el.isConnected) return null;
        const r = el.getBoundingClientRect();
        const box = [r.x, r.y, r.width, r.height].map(Math.round);
        if (el.localName !== 'iframe' && el.localName !== 'frame') return box;
        const style = getComputedStyle(el);
        const left = el.clientLeft + parseFloat(style.paddingLeft);
        const top = el.clientTop + parseFloat(style.paddingTop);
        return [...box, Math.round(r.x + left), Math.round(r.y + top)];
      }),
    maskSecrets: (on, prints, print) => secrets.mask(on, prints, print),
    whenQuiet: (name, withOutline, capMs) =>
      new Promise((resolve) => {
        const finish = (look: QuietLook | null): void => {
          document.removeEventListener(name, onQuiet);
          clearTimeout(timer);
          resolve(look);
        };
        // Runs inside the main world's dispatch, before its check answers: both answers leave
        // together. A page that swallows the event only sends the worker the usual way.
        const onQuiet = (): void => {
          try {
            const outline = withOutline ? model.snapshot() : undefined;
            finish({ outline, title: document.title, url: location.href });
          } catch {
            finish(null);
          }
        };
        const timer = setTimeout(() => finish(null), capMs);
        document.addEventListener(name, onQuiet);
      }),
  };
  scope[key] = model;
  return model;
}

/** An expression whose value is the frame's page model (installing it on first use). */
export const PAGE_MODEL = `(${installPageModel.toString()})(${JSON.stringify(MODEL_KEY)}, ${JSON.stringify(CONFIG)}, ${makeDomRoles.toString()}, ${makeDomNames.toString()}, ${makeDomWalk.toString()}, ${makeDomQuery.toString()}, ${makeShadowSelector.toString()}, ${makeDomSecrets.toString()}, ${findPrinted.toString()})`;

/** What INSTALLED_PAGE_MODEL's calls answer in a world that has no model yet. */
export const MODEL_MISSING = '__browserAgentPageModelMissing';

/**
 * The page model of a world it was installed in, by name: PAGE_MODEL carries the whole script
 * (~19 KB), which every call sent and the page parsed again (#26). In a world without the model
 * every method answers MODEL_MISSING, and the caller sends PAGE_MODEL instead.
 */
export const INSTALLED_PAGE_MODEL = `(globalThis[${JSON.stringify(MODEL_KEY)}] ?? new Proxy({}, { get: () => () => ${JSON.stringify(MODEL_MISSING)} }))`;
