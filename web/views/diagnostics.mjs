// The Diagnostics reference: every entry of the core's catalogue (core/base/diagnostics.def,
// as the module's diagnosticsCatalogueJson answers it in the worker's READY message), each
// under the anchor diagnostic-<code>. Reached from the footer and from each notice whose
// code it knows ("What this means"). Text is set with textContent only.

const panel = () => document.getElementById('diagnostics-reference');
let catalogue = [];

export const entryAnchor = (code) => `diagnostic-${code}`;
export const knownDiagnostic = (code) => Boolean(code) && catalogue.some((entry) => entry.id === code);

// [{id, severity, meaning, action}] from the core.
export function setCatalogue(entries) {
  catalogue = Array.isArray(entries) ? entries : [];
  const list = document.getElementById('diagnostics-list');
  list.replaceChildren(...catalogue.map(entryElement));
}

function entryElement(entry) {
  const article = document.createElement('article');
  article.className = `diagnostic severity-${entry.severity}`;
  article.id = entryAnchor(entry.id);
  article.tabIndex = -1;
  const title = document.createElement('h3');
  const id = document.createElement('code');
  id.className = 'diagnostic-id';
  id.textContent = entry.id;
  const severity = document.createElement('span');
  severity.className = 'diagnostic-severity';
  severity.textContent = entry.severity;
  title.append(id, ' ', severity);
  const meaning = document.createElement('p');
  meaning.className = 'diagnostic-meaning';
  meaning.textContent = entry.meaning;
  const action = document.createElement('p');
  const label = document.createElement('strong');
  label.textContent = 'What to do: ';
  const actionText = document.createElement('span');
  actionText.className = 'diagnostic-action';
  actionText.textContent = entry.action;
  action.append(label, actionText);
  article.append(title, meaning, action);
  return article;
}

// Shows the reference, at the entry of `code` when there is one.
export function showDiagnostics(code) {
  panel().hidden = false;
  const entry = code ? document.getElementById(entryAnchor(code)) : null;
  const target = entry ?? document.getElementById('diagnostics-title');
  target.scrollIntoView({ block: 'start' });
  (entry ?? panel()).focus({ preventScroll: true });
}

export function hideDiagnostics() {
  panel().hidden = true;
}

// "What this means", linking a notice to its code's entry; null for a code the catalogue
// does not have (or none).
export function diagnosticLink(code) {
  if (!knownDiagnostic(code)) return null;
  const link = document.createElement('a');
  link.className = 'diagnostic-link';
  link.href = `#${entryAnchor(code)}`;
  link.dataset.code = code;
  link.textContent = `What this means (${code})`;
  // The address keeps its #report= link, if any: the reference opens in place.
  link.addEventListener('click', (event) => {
    event.preventDefault();
    showDiagnostics(code);
  });
  return link;
}

export function wireDiagnostics() {
  document.getElementById('open-diagnostics').addEventListener('click', (event) => {
    event.preventDefault();
    showDiagnostics('');
  });
  document.getElementById('diagnostics-close').addEventListener('click', hideDiagnostics);
}
