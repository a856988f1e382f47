#!/usr/bin/env python3
"""Fails when the diagnostics catalogue and the code that emits diagnostics disagree.

usage: check_diagnostics.py ROOT [--sollens BIN]

core/base/diagnostics.def lists every error, warning and note sollens emits (the
SOLLENS_DIAGNOSTIC X-macro). This check holds both sides to it:
  catalogue: every id is snake_case and unique, its severity is Error, Warning or Note,
     its meaning and its action are sentences (ending in a full stop).
  emitted: every entry is used: some source under core/ or wasm/ (outside
     base/diagnostics.*) names Code::<id>.
  coded: no diagnostic is emitted without a code: no warning or error pushed as plain
     text, kept in a vector of strings, carried in a string `code` or `error` member,
     made from a number (static_cast<Code>), written as JSON without its "code", or
     posted by the page's worker without one.
With --sollens, also: DIAGNOSTICS.md equals `sollens explain --markdown`.
Comments and the text inside string literals are not read as code.
"""
import pathlib
import re
import subprocess
import sys

from source_files import cpp_sources

SEVERITIES = ("Error", "Warning", "Note")
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
CATALOGUE_HOME = ("core/base/diagnostics.def", "core/base/diagnostics.h", "core/base/diagnostics.cpp")

# Read in the code alone (blank_literals_and_comments).
PLAIN_TEXT_IN_CODE = [
    (re.compile(r"\b\w*(warnings|errors|notices)\w*\s*(\.|->)\s*(push_back|emplace_back)\s*\(\s*"
                r'("\s*"|std::(string|to_string)\b|\{\s*"\s*")'),
     "a diagnostic pushed as plain text, without a Code"),
    (re.compile(r"std::vector<\s*std::string\s*>\s*&?\s*\w*(warnings|errors)\b"),
     "diagnostics kept as plain strings (std::vector<Diagnostic> carries their codes)"),
    (re.compile(r"static_cast<\s*(sollens::)?Code\s*>"),
     "a Code made from a number: name the catalogue entry (Code::<id>)"),
]
# Members of a header's structs: a code or an error that is only words.
PLAIN_TEXT_MEMBERS = [
    (re.compile(r"\bstd::string\s+(code|error|warning)\s*(;|=|\{)"),
     "a diagnostic's code or error as a string member (use Code, Status or Diagnostic)"),
]
# JSON keys are literals, so these read the raw text: an "error" or "warning" object
# written without a "code" member near it.
JSON_DIAGNOSTIC_KEY = re.compile(r"\b(key|member|member_raw)\s*\(\s*\"(error|warning)\"")
JSON_CODE_KEY = re.compile(r"\b(key|member)\s*\(\s*\"code\"")
JSON_CODE_REACH = 240  # characters after the key in which its "code" must be written
# The page's worker: an object posted with an error must carry its code.
POSTED_ERROR = re.compile(r"postMessage\(\s*\{")


def parse_arguments(text: str, start: int):
    """The top-level arguments of the call whose '(' is at text[start], literals decoded."""
    args, current, depth, i = [], [], 0, start + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            current.append(("str", bytes(text[i + 1:j], "utf-8").decode("unicode_escape")))
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(current)
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(current)
            current = []
        elif not c.isspace():
            current.append(("code", c))
        i += 1
    raise ValueError("unclosed SOLLENS_DIAGNOSTIC(")


def catalogue(root: pathlib.Path):
    """[(id, severity, meaning, action, line)] in the order of diagnostics.def."""
    text = (root / "core/base/diagnostics.def").read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group()), text)
    entries = []
    for m in re.finditer(r"\bSOLLENS_DIAGNOSTIC\s*\(", text):
        args, _ = parse_arguments(text, m.end() - 1)
        line = text.count("\n", 0, m.start()) + 1

        def words(arg):
            return "".join(v for kind, v in arg if kind == "code")

        def literal(arg):
            return "".join(v for kind, v in arg if kind == "str") if arg and all(k == "str" for k, _ in arg) else None

        if len(args) != 4:
            entries.append((words(args[0]) if args else "?", "", None, None, line))
            continue
        entries.append((words(args[0]), words(args[1]), literal(args[2]), literal(args[3]), line))
    return entries


def catalogue_problems(entries):
    found, seen = [], {}
    for ident, severity, meaning, action, line in entries:
        where = f"core/base/diagnostics.def:{line}: {ident}"
        if not SNAKE_CASE.match(ident):
            found.append(f"{where}: the id is not snake_case")
        if ident == "ok":
            found.append(f"{where}: 'ok' is the code of success, not a diagnostic")
        if ident in seen:
            found.append(f"{where}: the id is already used on line {seen[ident]}")
        seen.setdefault(ident, line)
        if severity not in SEVERITIES:
            found.append(f"{where}: severity {severity!r} is none of {', '.join(SEVERITIES)}")
        for name, text in (("meaning", meaning), ("action", action)):
            if text is None:
                found.append(f"{where}: the {name} is not a string literal")
            elif len(text.strip()) < 5:
                found.append(f"{where}: the {name} is empty")
            elif not text.rstrip().endswith("."):
                found.append(f"{where}: the {name} does not end in a full stop: {text!r}")
    return found


def blank_literals_and_comments(text: str) -> str:
    """The text with comments and the inside of string and character literals turned to
    spaces (newlines kept), so that a match's offset is its place in the file."""
    out, i, n = list(text), 0, len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            close = ")" + text[i + 2:open_paren] + '"'
            end = text.find(close, open_paren + 1)
            end = n if end < 0 else end
            blank(open_paren, end + 1)
            i = end + len(close)
        elif text[i] in "\"'" and not (text[i] == "'" and i > 0 and text[i - 1].isalnum()):
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def emission_problems(root: pathlib.Path, entries):
    found, used = [], set()
    for path in cpp_sources(root):
        rel = path.relative_to(root).as_posix()
        if rel in CATALOGUE_HOME:
            continue
        raw = path.read_text(encoding="utf-8")
        code = blank_literals_and_comments(raw)
        used.update(re.findall(r"\bCode::(\w+)", code))
        checks = PLAIN_TEXT_IN_CODE + (PLAIN_TEXT_MEMBERS if rel.endswith(".h") else [])
        for pattern, why in checks:
            for m in pattern.finditer(code):
                found.append(f"{rel}:{line_of(code, m.start())}: {why}: {' '.join(raw[m.start():m.end()].split())}")
        if rel.startswith("core/writers/"):
            for m in JSON_DIAGNOSTIC_KEY.finditer(raw):
                if not JSON_CODE_KEY.search(raw, m.end(), m.end() + JSON_CODE_REACH):
                    found.append(f"{rel}:{line_of(raw, m.start())}: JSON \"{m.group(2)}\" written without its \"code\"")
    for ident, *_, line in entries:
        if ident not in used:
            found.append(f"core/base/diagnostics.def:{line}: {ident}: no source under core/ or wasm/ emits "
                         f"Code::{ident} (emit it, or remove the entry)")
    return found


def object_literal(text: str, open_brace: int) -> str:
    depth = 0
    for i in range(open_brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[open_brace:i + 1]
    return text[open_brace:]


def worker_problems(root: pathlib.Path):
    found = []
    for path in sorted((root / "web").glob("*worker*.mjs")) if (root / "web").is_dir() else []:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root).as_posix()
        for m in POSTED_ERROR.finditer(text):
            posted = object_literal(text, m.end() - 1)
            if re.search(r"\berror\s*[:,}]", posted) and not re.search(r"\bcode\b", posted):
                found.append(f"{rel}:{line_of(text, m.start())}: an error posted without its code: "
                             f"{' '.join(posted.split())[:80]}")
    return found


def markdown_problems(root: pathlib.Path, sollens: str):
    generated = subprocess.run([sollens, "explain", "--markdown"], capture_output=True, text=True, check=False)
    if generated.returncode != 0:
        return [f"sollens explain --markdown failed ({generated.returncode}): {generated.stderr.strip()}"]
    path = root / "DIAGNOSTICS.md"
    if not path.is_file():
        return ["DIAGNOSTICS.md is missing: sollens explain --markdown > DIAGNOSTICS.md"]
    if path.read_text(encoding="utf-8") != generated.stdout:
        return ["DIAGNOSTICS.md differs from the catalogue: regenerate it with "
                "`build/native/core/sollens explain --markdown > DIAGNOSTICS.md`"]
    return []


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--sollens"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    entries = catalogue(root)
    found = catalogue_problems(entries) + emission_problems(root, entries) + worker_problems(root)
    if len(argv) == 4:
        found += markdown_problems(root, argv[3])
    for problem in found:
        print(problem)
    print(f"check_diagnostics: {len(entries)} catalogue entries, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
