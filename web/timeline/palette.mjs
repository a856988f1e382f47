// The time axis's colours: GPU work by category in the Okabe–Ito palette (told apart
// with the common colour-vision deficiencies); the legend, the label in each box wide
// enough and the details panel name the category too, so colour is never the only key.
// Names are matched by their start, lower case: the core's categories are the ops
// sheets' (GEMM, SDPA_fwd, elementwise, reduce, triton, …), communication, memcpy,
// memset, other.
const CATEGORY_COLOURS = [
  ['gemm', '#0072B2'],
  ['sdpa', '#D55E00'],
  ['attention', '#D55E00'],
  ['flash', '#D55E00'],
  ['conv', '#004d80'],
  ['elementwise', '#009E73'],
  ['reduc', '#CC79A7'],
  ['norm', '#56B4E9'],
  ['triton', '#F0E442'],
  ['communication', '#7a2d8f'],
  ['nccl', '#7a2d8f'],
  ['memcpy', '#E69F00'],
  ['memset', '#b08000'],
];
const OTHER = '#8a8f99';
const known = new Map();
function categoryColour(category) {
  let c = known.get(category);
  if (c === undefined) {
    const lower = category.toLowerCase();
    c = CATEGORY_COLOURS.find(([start]) => lower.startsWith(start))?.[1]
      ?? CATEGORY_COLOURS.find(([start]) => lower.includes(start))?.[1] ?? OTHER;
    known.set(category, c);
  }
  return c;
}
// CPU lanes: by kind, in greys and a muted blue (the GPU lanes carry the colour).
const KIND_COLOURS = new Map([['cpu_op', '#9fb3c8'], ['user_annotation', '#c8b99f'], ['python_function', '#b7c4a3'],
  ['runtime', '#6f7d8c'], ['driver', '#5a6675'], ['cuda_runtime', '#6f7d8c'], ['cuda_driver', '#5a6675']]);

export function colourOf(kind, category) {
  if (category) return categoryColour(category);
  return KIND_COLOURS.get(kind) ?? (kind === 'kernel' || kind.startsWith('gpu') ? OTHER : '#a9b1bd');
}
// The legend's entries: the categories the trace has, by name.
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
export const OVERLAY = { critical: '#d0021b', criticalOther: '#1d3f8f', delay: '#111111', launch: '#444b55', selection: 'rgba(31,95,191,0.14)', selectionEdge: '#1f5fbf',
  highlight: '#111', partner: '#d0021b', stepA: '#e8ebf0', stepB: '#f5f6f8', band: '#fff' };
