// Which rows of a sheet a table shows, in which order: filtering (a case-insensitive
// substring of any string column) and sorting (numbers numerically, strings by a
// collator; cells without a value last in both directions; ties keep the sheet's
// order). Only row indices move: the sheet is never copied or changed.

// columns: the shown columns of the sheet (they carry their values).
export function createRowOrder(sheet, columns) {
  const collator = new Intl.Collator('en', { numeric: true });
  let filtered = identity(sheet.rows);  // rows passing the filter, in sheet order
  let order = filtered;                 // ... sorted: what is shown, top to bottom
  let sortColumn = -1;
  let descending = false;
  const sort = () => {
    order = sortColumn < 0 ? filtered : sortRows(filtered, columns[sortColumn], descending, collator);
  };
  return {
    get order() { return order; },
    get sortColumn() { return sortColumn; },
    get descending() { return descending; },
    // The same column again flips the direction; another starts with the largest
    // numbers first (what matters most), strings from A.
    toggleSort(i) {
      if (sortColumn === i) descending = !descending;
      else {
        sortColumn = i;
        descending = columns[i].type !== 'string';
      }
      sort();
    },
    sortBy(i, isDescending) {
      sortColumn = i;
      descending = isDescending;
      sort();
    },
    filter(query) {
      filtered = filterRows(sheet, columns, query);
      sort();
    },
  };
}

function filterRows(sheet, columns, query) {
  const q = query.trim().toLowerCase();
  if (!q) return identity(sheet.rows);
  const tests = columns.filter((c) => c.type === 'string').map((c) => ({
    c, hit: Uint8Array.from(c.dictionary, (s) => (s.toLowerCase().includes(q) ? 1 : 0)),
  }));
  const rows = [];
  for (let r = 0; r < sheet.rows; r++) {
    for (const { c, hit } of tests) {
      const code = c.codes[r];
      if (code >= 0 && c.validity[r] && hit[code]) {
        rows.push(r);
        break;
      }
    }
  }
  return Int32Array.from(rows);
}

function sortRows(filtered, c, descending, collator) {
  const sign = descending ? -1 : 1;
  const rows = Array.from(filtered);
  const valid = c.validity;
  if (c.type === 'string') {
    const rank = dictionaryRanks(c.dictionary, collator);
    const codes = c.codes;
    rows.sort((a, b) => {
      const na = !valid[a] || codes[a] < 0;
      const nb = !valid[b] || codes[b] < 0;
      if (na || nb) return na === nb ? a - b : (na ? 1 : -1);
      return (rank[codes[a]] - rank[codes[b]]) * sign || a - b;
    });
  } else {
    const v = c.values;
    rows.sort((a, b) => {
      // NaN sorts with the empty cells: it has no order.
      const na = !valid[a] || Number.isNaN(v[a]);
      const nb = !valid[b] || Number.isNaN(v[b]);
      if (na || nb) return na === nb ? a - b : (na ? 1 : -1);
      return (v[a] < v[b] ? -1 : v[a] > v[b] ? 1 : 0) * sign || a - b;
    });
  }
  return Int32Array.from(rows);
}

const identity = (n) => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
};

// Rank of each dictionary entry in collation order (computed once per column).
const ranks = new WeakMap();
function dictionaryRanks(dictionary, collator) {
  let rank = ranks.get(dictionary);
  if (rank) return rank;
  const idx = dictionary.map((_, i) => i).sort((a, b) => collator.compare(dictionary[a], dictionary[b]));
  rank = new Int32Array(dictionary.length);
  idx.forEach((d, i) => { rank[d] = i; });
  ranks.set(dictionary, rank);
  return rank;
}
