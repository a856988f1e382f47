#!/usr/bin/env python3
"""Fails when JSON text is put together by hand outside core/writers/.

JSON is written in one place, writers/ (JsonBuilder and the writers built on it), so
that every key is spelled once and every string escaped once. Elsewhere under core/
and wasm/ this check reads each string literal (plain and raw, escapes decoded,
comments skipped) and rejects one that opens or closes a JSON object or member
({" ": "}), and any use of the hand-assembly helpers (json_string, json_object,
JsonMembers) outside base/json_text, which defines them.
"""
import pathlib
import re
import sys

from source_files import cpp_sources

# Literal text that looks like JSON but is not written as JSON: the Execution Trace
# reader's error messages quote the shape it expected.
NOT_JSON = ('{"schema", "nodes", ...}',)

JSON_IN_LITERAL = re.compile(r'\{"|":|"\}')
HELPERS = re.compile(r'\b(json_string|json_object|JsonMembers)\b')
HELPERS_HOME = ("core/base/json_text.h", "core/base/json_text.cpp")

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def split_code(text: str):
    """The file's string literals (decoded) and its code with literals and comments blanked."""
    literals, code, i, n = [], [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            close = ")" + text[i + 2:open_paren] + '"'
            end = text.find(close, open_paren + 1)
            end = n if end < 0 else end
            literals.append(text[open_paren + 1:end])
            code.append('""')
            i = end + len(close)
        elif text[i] == '"':
            j, value = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    value.append(ESCAPES.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    value.append(text[j])
                    j += 1
            literals.append("".join(value))
            code.append('""')
            i = j + 1
        elif text[i] == "'":
            end = i + 1
            while end < n and text[end] != "'":
                end += 2 if text[end] == "\\" else 1
            code.append("''")
            i = end + 1
        else:
            code.append(text[i])
            i += 1
    return literals, "".join(code)


def problems_in(path: pathlib.Path, rel: str):
    literals, code = split_code(path.read_text(encoding="utf-8"))
    found = []
    for literal in literals:
        for allowed in NOT_JSON:
            literal = literal.replace(allowed, "")
        if JSON_IN_LITERAL.search(literal):
            found.append(f"{rel}: JSON text in a string literal: {literal.strip()[:60]!r}")
    if rel not in HELPERS_HOME:
        for helper in sorted(set(HELPERS.findall(code))):
            found.append(f"{rel}: {helper} assembles JSON by hand")
    return found


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sources = cpp_sources(root)
    problems = []
    for path in sources:
        rel = path.relative_to(root).as_posix()
        if rel.startswith("core/writers/"):
            continue
        problems += problems_in(path, rel)
    for p in problems:
        print(p)
    print(f"check_json: {len(sources)} files, {len(problems)} written by hand outside core/writers/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
