import type { RecordedStep } from '../shared/recordings';
import { timeOfDay } from '../shared/callSentence';

/** How long each step stays on screen in the exported video. */
const STEP_MS = 1_200;
const FRAME_MS = 100;
const WIDTH_PX = 800;
const CAPTION_PX = 44;
const MARKER_COLOR = '#e11d48';

function pickMimeType(): string {
  for (const type of ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'])
    if (MediaRecorder.isTypeSupported(type)) return type;
  throw new Error('This browser cannot record video (no WebM support in MediaRecorder).');
}

/**
 * The recording as a short WebM video: each step's screenshot for STEP_MS, a caption with its
 * time and sentence, and a pulsing ring where the agent pressed the mouse. Drawn on a canvas and
 * encoded by the browser's own MediaRecorder, here in the panel: nothing leaves the machine.
 */
export async function exportVideo(steps: readonly RecordedStep[]): Promise<Blob> {
  const images = await Promise.all(
    steps.map((s) => (s.image ? createImageBitmap(s.image) : Promise.resolve(undefined))),
  );
  const first = images.find((i) => i !== undefined);
  const scale = first ? Math.min(1, WIDTH_PX / first.width) : 1;
  const width = Math.round((first?.width ?? WIDTH_PX) * scale);
  const shotHeight = Math.round((first?.height ?? (WIDTH_PX * 9) / 16) * scale);
  const canvas = document.createElement('canvas');
  // Even sizes: some encoders refuse odd ones.
  canvas.width = width + (width % 2);
  canvas.height = shotHeight + CAPTION_PX + ((shotHeight + CAPTION_PX) % 2);
  const g = canvas.getContext('2d');
  if (!g) throw new Error('No 2D canvas in this panel.');

  const draw = (index: number, t: number): void => {
    const step = steps[index];
    const image = images[index];
    g.fillStyle = '#111827';
    g.fillRect(0, 0, canvas.width, canvas.height);
    if (image) g.drawImage(image, 0, 0, canvas.width, shotHeight);
    else {
      g.fillStyle = '#9ca3af';
      g.font = '16px system-ui, sans-serif';
      g.fillText('(no picture for this step)', 16, shotHeight / 2);
    }
    if (step?.marker && image) {
      const x = step.marker.x * canvas.width;
      const y = step.marker.y * shotHeight;
      const pulse = (t % 600) / 600;
      g.strokeStyle = MARKER_COLOR;
      g.lineWidth = 3;
      g.beginPath();
      g.arc(x, y, 10 + pulse * 14, 0, Math.PI * 2);
      g.stroke();
      g.fillStyle = MARKER_COLOR;
      g.beginPath();
      g.arc(x, y, 5, 0, Math.PI * 2);
      g.fill();
    }
    g.fillStyle = '#f9fafb';
    g.font = '600 14px system-ui, sans-serif';
    const caption = step
      ? `${index + 1}/${steps.length}  ${timeOfDay(step.at)}  ${step.sentence}`
      : '';
    g.fillText(caption, 10, shotHeight + 28, canvas.width - 20);
  };

  const stream = canvas.captureStream(1000 / FRAME_MS);
  const recorder = new MediaRecorder(stream, {
    mimeType: pickMimeType(),
    videoBitsPerSecond: 1_500_000,
  });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  draw(0, 0);
  recorder.start(FRAME_MS * 5);
  const started = performance.now();
  const total = Math.max(1, steps.length) * STEP_MS;
  // A timer rather than requestAnimationFrame: a panel out of sight gets no animation frames.
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const t = performance.now() - started;
      if (t >= total) {
        resolve();
        return;
      }
      draw(Math.min(steps.length - 1, Math.floor(t / STEP_MS)), t % STEP_MS);
      setTimeout(tick, FRAME_MS);
    };
    tick();
  });
  recorder.stop();
  await stopped;
  for (const track of stream.getTracks()) track.stop();
  for (const image of images) image?.close();
  return new Blob(chunks, { type: 'video/webm' });
}
