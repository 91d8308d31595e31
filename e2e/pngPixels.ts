/**
 * Counts a screenshot's pixels that pass a test, for e2e checks of what reaches pixels. Reads
 * the PNGs Chrome writes: 8-bit RGB or RGBA, not interlaced (anything else throws).
 */
import { inflateSync } from 'node:zlib';

type Rgb = (r: number, g: number, b: number) => boolean;

export function countPixels(base64: string, test: Rgb): number {
  const png = Buffer.from(base64, 'base64');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) {
        throw new Error(
          `countPixels reads 8-bit RGB(A) PNGs only (depth ${depth}, color ${color})`,
        );
      }
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  let previous = Buffer.alloc(stride);
  let count = 0;
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i += 1) {
      const left = i >= channels ? (line[i - channels] ?? 0) : 0;
      const up = previous[i] ?? 0;
      const corner = i >= channels ? (previous[i - channels] ?? 0) : 0;
      const x = line[i] ?? 0;
      if (filter === 1) line[i] = x + left;
      else if (filter === 2) line[i] = x + up;
      else if (filter === 3) line[i] = x + ((left + up) >> 1);
      else if (filter === 4) line[i] = x + paeth(left, up, corner);
    }
    for (let i = 0; i < stride; i += channels) {
      if (test(line[i] ?? 0, line[i + 1] ?? 0, line[i + 2] ?? 0)) count += 1;
    }
    previous = line;
  }
  return count;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}
