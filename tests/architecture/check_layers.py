#!/usr/bin/env python3
"""Fails when a file under core/ or wasm/ includes a header from a layer it may not use.

The layers and what each may include are in core/README.md; this table is that
picture, checked. A folder not listed here is itself an error, so a new folder has to
be placed in the picture before it can be built on.
"""
import pathlib
import re
import sys

from source_files import cpp_sources

# layer -> the layers its files may include (besides its own)
ALLOWED = {
    "base": set(),
    "store": {"base"},
    "table": {"base"},
    "devices": {"base", "store"},
    "ingest": {"base", "store", "table"},
    "model": {"base", "store"},
    "analyses": {"base", "store", "table", "model", "devices"},
    "report": {"base", "store", "table", "model", "devices", "analyses"},
    "writers": {"base", "store", "table", "devices", "analyses", "report"},
    "api": {"base", "store", "table", "model", "devices", "analyses", "report", "ingest", "writers"},
    "cli": {"base", "writers", "api"},  # the one door: results through Session, files through writers
    "wasm": {"base", "table", "writers", "api"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_of(path: pathlib.Path, root: pathlib.Path) -> str:
    rel = path.relative_to(root)
    return "wasm" if rel.parts[0] == "wasm" else rel.parts[1]


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sources = cpp_sources(root)
    problems = []
    for path in sources:
        layer = layer_of(path, root)
        if layer not in ALLOWED:
            problems.append(f"{path.relative_to(root)}: folder '{layer}' is not in the layer table")
            continue
        for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
            to = target.split("/")[0]
            if "/" not in target or to == layer or to not in ALLOWED:
                continue  # same layer, a generated or third-party header
            if to not in ALLOWED[layer]:
                problems.append(f"{path.relative_to(root)}: {layer} may not include {target}")
    for p in problems:
        print(p)
    print(f"check_layers: {len(sources)} files, {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
