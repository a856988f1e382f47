// The time axis's colours: GPU work by category in the Okabe–Ito palette (told apart
// with the common colour-vision deficiencies); the legend, the label in each box wide
// enough and the details panel name the category too, so colour is never the only key.
const CATEGORY_COLOURS = [
  ['GEMM', '#0072B2'],
  ['attention', '#D55E00'],
  ['elementwise', '#009E73'],
  ['reduction', '#CC79A7'],
  ['normalization', '#56B4E9'],
  ['communication', '#7a2d8f'],
  ['memcpy', '#E69F00'],
  ['memset', '#b08000'],
  ['convolution', '#004d80'],
];
const OTHER = '#8a8f99';
const byCategory = new Map(CATEGORY_COLOURS.map(([c, colour]) => [c.toLowerCase(), colour]));
// CPU lanes: by kind, in greys and a muted blue (the GPU lanes carry the colour).
const KIND_COLOURS = new Map([['cpu_op', '#9fb3c8'], ['user_annotation', '#c8b99f'], ['python_function', '#b7c4a3'],
  ['runtime', '#6f7d8c'], ['cuda_runtime', '#6f7d8c'], ['cuda_driver', '#6f7d8c']]);

export function colourOf(kind, category) {
  if (category) {
    const c = byCategory.get(category.toLowerCase());
    if (c) return c;
    for (const [name, colour] of byCategory) if (category.toLowerCase().includes(name)) return colour;
    return OTHER;
  }
  return KIND_COLOURS.get(kind) ?? (kind === 'kernel' ? OTHER : '#a9b1bd');
}
// The legend's entries: the categories the trace has, in the palette's order.
export function legendEntries(categories) {
  const have = [...new Set(categories.filter(Boolean))];
  return have.map((c) => [c, colourOf('kernel', c)]).sort((a, b) => a[0].localeCompare(b[0]));
}
// Text on a box: dark on light colours, white on dark ones.
export function textOn(colour) {
  const v = parseInt(colour.slice(1), 16);
  const lum = 0.2126 * ((v >> 16) & 255) + 0.7152 * ((v >> 8) & 255) + 0.0722 * (v & 255);
  return lum > 140 ? '#111' : '#fff';
}
export const OVERLAY = { critical: '#d0021b', launch: '#444b55', selection: 'rgba(31,95,191,0.14)', selectionEdge: '#1f5fbf',
  highlight: '#111', partner: '#d0021b', stepA: '#e8ebf0', stepB: '#f5f6f8', band: '#fff' };
