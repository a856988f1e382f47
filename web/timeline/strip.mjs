// The boxes layer (the lanes' pixels) kept for a strip three plot widths wide, so that
// a pan at a fixed zoom copies pixels and draws only the newly exposed columns. Columns
// are "world" device pixels: time t is at Math.round(t × scale × dpr), whatever the
// view's start, so a column drawn once is the same column however it is reached (a
// panned frame equals a freshly drawn one, pixel for pixel). A zoom, a resize, a scroll
// of the lanes or an overlay that paints boxes (steps, SOL) starts the strip afresh.
import { PixelBuffer } from './pixels.mjs';

export class LaneStrip {
  constructor() {
    this.key = null;
    this.buffer = new PixelBuffer();
    this.origin = 0;      // world column of the strip's column 0
    this.validLo = 0;     // world columns drawn: [validLo, validHi)
    this.validHi = 0;
    this.labels = [];     // (event, world x left, world x right, y, colour) × n, CSS px
    this.labelled = new Set();
  }
  // Makes the strip hold world columns [left, left + width) drawn for `key` (a string
  // of what the pixels depend on; `index` compared by identity). draw(buffer, lo, hi)
  // paints world columns [lo, hi) (the buffer's clip is set to them) and pushes labels.
  ensure(index, key, left, width, height, scale, draw) {
    if (this.key !== key || this.index !== index || this.buffer.height !== height || this.width !== width) {
      this.reset(index, key, left, width, height, scale);
    } else if (left < this.origin || left + width > this.origin + 3 * width) {
      this.recentre(left, width);
    }
    const right = left + width;
    if (right <= this.validLo || left >= this.validHi) {
      this.validLo = this.validHi = left;
      this.labels = [];
      this.labelled.clear();
    }
    if (this.validLo === this.validHi) {
      this.paint(left, right, draw);
      this.validLo = left;
      this.validHi = right;
      return;
    }
    if (left < this.validLo) { this.paint(left, this.validLo, draw); this.validLo = left; }
    if (right > this.validHi) { this.paint(this.validHi, right, draw); this.validHi = right; }
  }
  reset(index, key, left, width, height, scale) {
    this.key = key;
    this.index = index;
    this.width = width;
    this.buffer.allocate(3 * width, height, scale);
    this.origin = left - width;
    this.validLo = this.validHi = left;
    this.labels = [];
    this.labelled.clear();
  }
  // The view left the strip: centre the strip on it, keeping the columns already drawn.
  recentre(left, width) {
    const origin = left - width;
    const lo = Math.max(this.validLo, origin);
    const hi = Math.min(this.validHi, origin + 3 * width);
    const words = this.buffer.words;
    const stride = this.buffer.width;
    if (lo < hi) {
      for (let row = 0, base = 0; row < this.buffer.height; row++, base += stride)
        words.copyWithin(base + lo - origin, base + lo - this.origin, base + hi - this.origin);
    }
    this.origin = origin;
    this.validLo = lo < hi ? lo : left;
    this.validHi = lo < hi ? hi : left;
    const scale = this.buffer.scale;
    const kept = [];
    this.labelled.clear();
    for (let j = 0; j < this.labels.length; j += 5) {
      if (this.labels[j + 2] * scale <= this.validLo || this.labels[j + 1] * scale >= this.validHi) continue;
      kept.push(this.labels[j], this.labels[j + 1], this.labels[j + 2], this.labels[j + 3], this.labels[j + 4]);
      this.labelled.add(this.labels[j]);
    }
    this.labels = kept;
  }
  paint(lo, hi, draw) {
    const b = this.buffer;
    b.originX = this.origin;
    b.clip = { x0: lo - this.origin, y0: 0, x1: hi - this.origin, y1: b.height };
    draw(b, lo, hi);
  }
  // An event's label, once per event while the strip holds it.
  label(i, left, right, y, colour) {
    if (this.labelled.has(i)) return;
    this.labelled.add(i);
    this.labels.push(i, left, right, y, colour);
  }
  // Copies world columns [left, left + width) to the frame's buffer at device (x, y).
  blit(target, left, x, y) {
    const src = this.buffer.words;
    const stride = this.buffer.width;
    const from = left - this.origin;
    const dst = target.words;
    for (let row = 0; row < this.buffer.height; row++) {
      const at = row * stride + from;
      dst.set(src.subarray(at, at + this.width), (y + row) * target.width + x);
    }
  }
}
