// Several files at once (a multi-file drop or pick, a dropped or chosen folder): which
// files they are, so that open.mjs can decide between one report, a comparison of two
// runs and the ranks of one run (sniff.mjs tells each file's kind).
//   droppedFiles(dataTransfer) -> () => Promise<[{file, name}]>   (call in the drop handler)
//   pickedFiles(fileList)      -> [{file, name}]
// name is the path inside a dropped or chosen folder (folder/rank0.json.gz), else the
// file's name. Files are sorted by name, as `sollens report DIR` sorts a folder's.

// What sollens report takes from a folder: *.json and *.json.gz, not its own report.json.
export const isTraceName = (name) => /\.json(\.gz)?$/i.test(name) && !/(^|\/)report\.json$/.test(name);

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// The dropped items must be taken while the drop event runs (the browser empties the
// DataTransfer after it); the folders are then read asynchronously.
export function droppedFiles(dataTransfer) {
  const items = [...(dataTransfer?.items ?? [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = [...(dataTransfer?.files ?? [])];
  return async () => {
    if (!entries.some((e) => e?.isDirectory)) return files.map((file) => ({ file, name: file.name }));
    const out = [];
    for (const [i, entry] of entries.entries()) {
      if (entry?.isDirectory) out.push(...(await filesUnder(entry)));
      else if (files[i]) out.push({ file: files[i], name: files[i].name });
    }
    return out.sort(byName);
  };
}

// A folder chosen with <input webkitdirectory>: its trace files, by path.
export function pickedFiles(fileList) {
  return [...fileList].map((file) => ({ file, name: file.webkitRelativePath || file.name })).sort(byName);
}

// Every trace file under a dropped folder (its subfolders too).
async function filesUnder(directory) {
  const out = [];
  const reader = directory.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const entry of batch) {
      if (entry.isDirectory) out.push(...(await filesUnder(entry)));
      else if (isTraceName(entry.name)) {
        const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
        out.push({ file, name: entry.fullPath.replace(/^\//, '') });
      }
    }
  }
  return out;
}
