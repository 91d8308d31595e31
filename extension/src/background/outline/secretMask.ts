/**
 * The secret-field mask for what leaves as pixels or print: screenshots (tools/content.ts) and
 * PDFs (tools/pdf.ts), across every frame the outline reaches.
 */
import type { TabHandle } from '../tabStates';
import { callInFrame } from '../page/world';
import { listFrames } from './frames';

/** Bounds the work on pages full of frames, like the outline's own bound. */
const MAX_MASKED_FRAMES = 50;

/**
 * Secret fields (secretKind's rule, in every frame the page model reaches) are painted in
 * transparent ink while the screenshot or the PDF is taken, so typed card numbers, one-time codes and
 * "shown" passwords never reach pixels; their boxes stay, so the layout reads the same.
 */
export async function withSecretsMasked<T>(tab: TabHandle, run: () => Promise<T>): Promise<T> {
  const frames = (await listFrames(tab).catch(() => [])).slice(0, MAX_MASKED_FRAMES);
  const masked = await Promise.all(
    frames.map((frame) =>
      callInFrame(tab.cdp, tab.state, frame, 'maskSecrets(true)').then(
        ({ value }) => (typeof value === 'number' && value > 0 ? frame : undefined),
        () => undefined,
      ),
    ),
  );
  try {
    return await run();
  } finally {
    await Promise.all(
      masked.map((frame) =>
        frame === undefined
          ? Promise.resolve()
          : callInFrame(tab.cdp, tab.state, frame, 'maskSecrets(false)').then(
              () => undefined,
              () => undefined,
            ),
      ),
    );
  }
}
