"""The C++ files the architecture checks read: every header, source and .inc under core/ and wasm/."""
import pathlib


def cpp_sources(root: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for d in ("core", "wasm") for p in (root / d).rglob("*")
                  if p.suffix in (".h", ".cpp", ".inc") and p.is_file())
