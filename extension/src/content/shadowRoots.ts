/**
 * Finds the shadow roots a form's `submit` event will stay inside (it is not composed), so the
 * guard can listen there too. A root is found on the path of a composed event that crosses it:
 * the agent's click, key or focus, or the main-world hook's discover event for a script's
 * `submit()` / `requestSubmit()`. Closed roots are reached through `chrome.dom`, which only
 * content scripts have.
 */

export function shadowRootOf(element: Element): ShadowRoot | null {
  if (!(element instanceof HTMLElement)) return element.shadowRoot;
  return element.shadowRoot ?? chrome.dom.openOrClosedShadowRoot(element);
}

/**
 * Every shadow root on the event's path. A closed root hides its inside from a listener on
 * window, so the roots under a closed one are all taken (only while a guard is armed).
 */
export function shadowRootsOnPath(event: Event): ShadowRoot[] {
  const roots: ShadowRoot[] = [];
  for (const node of event.composedPath()) {
    if (node instanceof ShadowRoot) roots.push(node);
    else if (node instanceof Element && node.shadowRoot === null) {
      const closed = shadowRootOf(node);
      if (closed !== null) roots.push(closed, ...rootsUnder(closed));
    }
  }
  return roots;
}

function rootsUnder(root: ShadowRoot): ShadowRoot[] {
  return Array.from(root.querySelectorAll('*')).flatMap((element) => {
    const inner = shadowRootOf(element);
    return inner === null ? [] : [inner, ...rootsUnder(inner)];
  });
}
