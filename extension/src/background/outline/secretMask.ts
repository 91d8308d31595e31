/**
 * The secret-field mask for what leaves as pixels or print: screenshots (tools/content.ts) and
 * PDFs (tools/pdf.ts), across every frame the outline reaches.
 */
import type { SecretPrints } from '@browser-agent/protocol';
import type { TabHandle } from '../tabStates';
import { callInFrame } from '../page/world';
import { listFrames } from './frames';

/** Bounds the work on pages full of frames, like the outline's own bound. */
const MAX_MASKED_FRAMES = 50;

/**
 * Secret fields (secretKind's rule, in every frame the page model reaches) are painted in
 * transparent ink while the screenshot or the PDF is taken, so typed card numbers, one-time codes and
 * "shown" passwords never reach pixels; their boxes stay, so the layout reads the same. With the
 * session's `prints`, a `--secrets` value shown as page text or held in any field is hidden too
 * (a grey box without glyphs). `print`: a PDF keeps transparent text in its text layer, so the
 * fields print as discs and shown values are swapped for discs while it is made.
 */
export async function withSecretsMasked<T>(
  tab: TabHandle,
  run: () => Promise<T>,
  prints: SecretPrints | undefined,
  print = false,
): Promise<T> {
  const on = `maskSecrets(true, ${JSON.stringify(prints ?? null)}, ${String(print)})`;
  const frames = (await listFrames(tab).catch(() => [])).slice(0, MAX_MASKED_FRAMES);
  const masked = await Promise.all(
    frames.map((frame) =>
      callInFrame(tab.cdp, tab.state, frame, on).then(
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
