import { describe, expect, it, vi } from 'vitest';
import exported from '../manifest.config';

// The build identity hashes the workspace from the build's directory; not what is tested here.
vi.mock('../../scripts/buildIdentity.mjs', () => ({ buildIdentity: () => 'test' }));

// defineManifest hands back the object it was given (it may also take a function or a promise).
const manifest = exported as Exclude<
  typeof exported,
  Promise<unknown> | ((...args: never[]) => unknown)
>;

describe('the manifest', () => {
  // A content script at document_end or document_idle, even an empty one, held each page's load
  // event (~150 ms on a 5,000-element page), and every navigate waits for load.
  it('runs every content script at document_start', () => {
    const scripts = manifest.content_scripts ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts)
      expect([script.js, script.run_at]).toEqual([script.js, 'document_start']);
  });

  // The extension's id is fixed, so a file any page may load tells every site it is installed.
  it('lets no page load any of its files', () => {
    expect(manifest).not.toHaveProperty('web_accessible_resources');
  });
});
