// The time axis's boxes written straight into an ImageData (device pixels) and put on
// the canvas at once: a frame of a million events is tens of thousands of boxes, which
// as canvas fillRect calls cost more to record and rasterise (in software above all)
// than writing their pixels. Text and lines are drawn over it with the 2D context.
const parsed = new Map();
// '#rrggbb' as a little-endian RGBA word.
export function rgba(colour) {
  let v = parsed.get(colour);
  if (v === undefined) {
    const n = parseInt(colour.slice(1), 16);
    v = (0xff000000 | ((n & 255) << 16) | (n & 0xff00) | ((n >> 16) & 255)) >>> 0;
    parsed.set(colour, v);
  }
  return v;
}

export class PixelBuffer {
  constructor() {
    this.width = 0;
    this.height = 0;
    this.image = null;
    this.words = null;
    this.clip = { x0: 0, y0: 0, x1: 0, y1: 0 };
    this.scale = 1;
    this.originX = 0;  // device px subtracted from every box's (a strip's world columns)
    this.originY = 0;
  }
  // Device-pixel size and the CSS-px → device-px scale.
  resize(ctx, width, height, scale) {
    this.scale = scale;
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.image = ctx.createImageData(width, height);
    this.words = new Uint32Array(this.image.data.buffer);
  }
  // A buffer of words alone (no ImageData): a strip kept between frames (strip.mjs).
  allocate(width, height, scale) {
    this.scale = scale;
    if (width !== this.width || height !== this.height) this.words = new Uint32Array(width * height);
    this.width = width;
    this.height = height;
  }
  // Drawing is kept inside this CSS-px rectangle.
  setClip(x, y, w, h) {
    const s = this.scale;
    this.clip = { x0: Math.max(0, Math.round(x * s)), y0: Math.max(0, Math.round(y * s)),
      x1: Math.min(this.width, Math.round((x + w) * s)), y1: Math.min(this.height, Math.round((y + h) * s)) };
  }
  fill(word) {
    this.words.fill(word);
  }
  // A box in CSS px; at least one device pixel wide so that no event vanishes.
  rect(x, y, w, h, word) {
    const s = this.scale;
    const c = this.clip;
    let x0 = Math.round(x * s) - this.originX;
    let x1 = Math.max(x0 + 1, Math.round((x + w) * s) - this.originX);
    let y0 = Math.round(y * s) - this.originY;
    let y1 = Math.max(y0 + 1, Math.round((y + h) * s) - this.originY);
    if (x0 < c.x0) x0 = c.x0;
    if (x1 > c.x1) x1 = c.x1;
    if (y0 < c.y0) y0 = c.y0;
    if (y1 > c.y1) y1 = c.y1;
    if (x0 >= x1 || y0 >= y1) return;
    const words = this.words;
    const stride = this.width;
    if (x1 - x0 > 24) {
      for (let row = y0; row < y1; row++) words.fill(word, row * stride + x0, row * stride + x1);
      return;
    }
    // Narrow boxes (most of them): plain stores beat fill()'s call per row.
    const n = x1 - x0;
    for (let at = y0 * stride + x0, end = y1 * stride + x0; at < end; at += stride)
      for (let j = 0; j < n; j++) words[at + j] = word;
  }
  put(ctx) {
    ctx.putImageData(this.image, 0, 0);
  }
}
