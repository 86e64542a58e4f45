// Draws the web app manifest's icons (static/icons/icon-192.png and
// icon-512.png): a loop, a ring with an arrow head, on the page's accent
// colour. Written once and committed; run again only to change the design:
//   node scripts/make-icons.mjs
// PNG by hand (8-bit RGBA, one IDAT, node's zlib), so it needs no package.
// The ring stays inside the central 80 % circle, so the same file serves as a
// maskable icon (the platform may crop it to any shape).

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'static', 'icons');
const BACKGROUND = [0x1f, 0x4e, 0x8c];
const INK = [0xff, 0xff, 0xff];

for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), png(size, draw(size)));

/** RGBA pixels: the background, a ring open at the top right, an arrow head at its end. */
function draw(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const c = size / 2;
  const radius = size * 0.26;
  const width = size * 0.07;
  // The ring's gap, in radians from the positive x axis (y down): -90° to -30°.
  const gapFrom = -Math.PI / 2;
  const gapTo = -Math.PI / 6;
  // The arrow head: a triangle at the ring's end by the gap, pointing along it.
  const end = [c + radius * Math.cos(gapTo), c + radius * Math.sin(gapTo)];
  const head = triangle(end, gapTo, size * 0.11);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      // Four samples a pixel, for smooth edges.
      let ink = 0;
      for (const [dx, dy] of [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
        const px = x + dx;
        const py = y + dy;
        const d = Math.hypot(px - c, py - c);
        const a = Math.atan2(py - c, px - c);
        const onRing = Math.abs(d - radius) <= width / 2 && !(a > gapFrom && a < gapTo);
        if (onRing || inside(head, px, py)) ink += 0.25;
      }
      const i = (y * size + x) * 4;
      for (let k = 0; k < 3; k += 1) pixels[i + k] = Math.round(BACKGROUND[k] * (1 - ink) + INK[k] * ink);
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}

/** The arrow head at `point`, the ring's end at `angle`, pointing along the
 * ring into the gap (anticlockwise on screen). */
function triangle([x, y], angle, length) {
  const along = [-Math.sin(angle), Math.cos(angle)];
  const across = [Math.cos(angle), Math.sin(angle)];
  const tip = [x - along[0] * length, y - along[1] * length];
  const half = length * 0.6;
  return [tip, [x + across[0] * half, y + across[1] * half], [x - across[0] * half, y - across[1] * half]];
}

function inside([a, b, c], x, y) {
  const side = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

function png(size, rgba) {
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
