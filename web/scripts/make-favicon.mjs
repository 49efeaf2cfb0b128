// Writes public/favicon.ico: a 16×16 and a 32×32 PNG (a page with a margin line and a few
// lines of text on an oxblood tile), drawn with 4×4 supersampling. Run: node web/scripts/make-favicon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const TILE = [143, 53, 34];
const PAGE = [251, 244, 228];
const MARGIN = [214, 98, 70];
const TEXT = [120, 106, 96];

function inRoundedRect(x, y, left, top, right, bottom, radius) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** Colour (rgba) of the icon at unit coordinates, or null when transparent. */
function sample(x, y) {
  if (!inRoundedRect(x, y, 0, 0, 1, 1, 0.2)) return null;
  if (!inRoundedRect(x, y, 0.22, 0.14, 0.78, 0.86, 0.05)) return TILE;
  if (x >= 0.33 && x <= 0.38) return MARGIN;
  const lines = [
    [0.27, 0.69],
    [0.39, 0.69],
    [0.51, 0.69],
    [0.63, 0.6],
  ];
  for (const [top, end] of lines) {
    if (y >= top && y <= top + 0.055 && x >= 0.45 && x <= end) return TEXT;
  }
  return PAGE;
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size) {
  const steps = 4;
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < steps; sy++) {
        for (let sx = 0; sx < steps; sx++) {
          const colour = sample((px + (sx + 0.5) / steps) / size, (py + (sy + 0.5) / steps) / size);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const offset = 1 + px * 4;
      if (a > 0) {
        row[offset] = Math.round(r / a);
        row[offset + 1] = Math.round(g / a);
        row[offset + 2] = Math.round(b / a);
        row[offset + 3] = Math.round((255 * a) / (steps * steps));
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const images = [16, 32].map((size) => ({ size, data: png(size) }));
const directory = Buffer.alloc(6 + 16 * images.length);
directory.writeUInt16LE(0, 0);
directory.writeUInt16LE(1, 2); // icon
directory.writeUInt16LE(images.length, 4);
let offset = directory.length;
images.forEach(({ size, data }, index) => {
  const entry = 6 + index * 16;
  directory[entry] = size;
  directory[entry + 1] = size;
  directory.writeUInt16LE(1, entry + 4); // planes
  directory.writeUInt16LE(32, entry + 6); // bits per pixel
  directory.writeUInt32LE(data.length, entry + 8);
  directory.writeUInt32LE(offset, entry + 12);
  offset += data.length;
});
const target = new URL('../public/favicon.ico', import.meta.url);
writeFileSync(target, Buffer.concat([directory, ...images.map((image) => image.data)]));
