#!/usr/bin/env python3
"""Writes a synthetic Kineto trace of a given size made of a real trace's events.

    make_big_trace.py SOURCE.json[.gz] OUT.json SIZE_MB [--compact]

The source's traceEvents are written again and again, each copy shifted past the
previous one in time (ts + k * span) with its ids made unique (correlation, External
id, flow id, Python ids, sequence numbers + k * (largest id + 1)), so the result is
one long run of the same program rather than overlapping copies. The events keep the
source's own text and layout (owlv2's: indented, about 420 bytes an event), numbers
aside; the source's other top-level members follow the array. Whole copies are
written until SIZE_MB (10^6 bytes) is reached. --compact writes every event on one
line without spaces instead (about 230 bytes an event for owlv2), cut at the event
that reaches SIZE_MB.
"""
import gzip
import json
import re
import sys

# Keys whose numbers are shifted: "key", the colon with its spaces, the number.
NUMBER = re.compile(
    r'"(ts|id|correlation|External id|external id|Python id|Python parent id|Sequence number)"'
    r'(\s*:\s*)(-?\d+)(\.\d+)?')
ID_KEYS = {"id", "correlation", "External id", "external id", "Python id", "Python parent id",
           "Sequence number"}


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read()


def span_and_ids(events):
    timed = [e for e in events if isinstance(e.get("ts"), (int, float))]
    start = min(e["ts"] for e in timed)
    end = max(e["ts"] + e.get("dur", 0) for e in timed)
    largest = 0
    for e in events:
        for source in (e, e.get("args") or {}):
            for key in ID_KEYS:
                v = source.get(key)
                if isinstance(v, int) and v > largest:
                    largest = v
    return int(end - start) + 1000, largest + 1


def events_text(text, compact, events):
    """The events array's inside, as it will be copied."""
    if compact:
        return ",\n".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events)
    open_at = re.search(r'"traceEvents"\s*:\s*\[', text).end() - 1
    _, end = json.JSONDecoder().raw_decode(text, open_at)  # just past the array's ']'
    return text[open_at + 1:end - 1].strip()


def shifted(pieces, t_shift, i_shift):
    parts = [pieces[0]]
    for j in range(1, len(pieces), 5):
        key, colon, whole, frac, text = pieces[j:j + 5]
        shift = t_shift if key == "ts" else i_shift
        parts.append('"%s"%s%d%s%s' % (key, colon, int(whole) + shift, frac or "", text))
    return "".join(parts)


def main():
    args = [a for a in sys.argv[1:] if a != "--compact"]
    compact = "--compact" in sys.argv[1:]
    if len(args) != 3:
        sys.exit(__doc__)
    source, out_path, size_mb = args[0], args[1], float(args[2])
    text = read_text(source)
    trace = json.loads(text)
    events = trace.pop("traceEvents")
    span_us, id_step = span_and_ids(events)
    pieces = NUMBER.split(events_text(text, compact, events))
    del text
    rest = json.dumps(trace, separators=(",", ":"))[1:]  # the other members, "}" included
    target = int(size_mb * 1e6)
    written = 0
    copy = 0
    with open(out_path, "wb") as out:
        head = b'{"traceEvents":[\n'
        out.write(head)
        written += len(head)
        while written < target:
            body = shifted(pieces, copy * span_us, copy * id_step).encode("utf-8")
            if copy:
                body = b",\n" + body
            if compact and copy and written + len(body) > target:
                cut = body.find(b"\n", target - written)  # one event a line
                if cut > 0:
                    body = body[:cut].rstrip(b",")
            out.write(body)
            written += len(body)
            copy += 1
        tail = ("\n]" + ("," + rest if len(rest) > 1 else "}")).encode("utf-8")
        out.write(tail)
    print("%s: %.1f MB, %d copies of %d events" % (out_path, (written + len(tail)) / 1e6, copy,
                                                   len(events)))


if __name__ == "__main__":
    main()
