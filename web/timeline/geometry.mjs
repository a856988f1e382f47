// Where things are on the time axis's canvas: the lane labels' gutter, the ruler and the
// bands above the lanes, and the mapping between time and x, content and y (CSS px).
export const GUTTER = 190;   // lane labels, CSS px
export const RULER = 26;
export const BAND = 16;

// Where things are on the canvas (CSS px) for a view {t0, t1, scrollY}.
export function geometry(width, height, bandRows) {
  const top = RULER + bandRows * BAND + 4;
  return { width, height, top, bandRows, plotWidth: Math.max(1, width - GUTTER) };
}
export const xOf = (g, view, t) => GUTTER + (t - view.t0) * g.plotWidth / (view.t1 - view.t0);
export const timeAt = (g, view, x) => view.t0 + (x - GUTTER) * (view.t1 - view.t0) / g.plotWidth;
export const yOf = (g, view, contentY) => g.top + contentY - view.scrollY;
