// web/split-point.mjs under node: where a large plain-JSON trace is cut for its read in
// two parts at once. The cut is a ',' between two events at or after the target; in a
// trace written with newlines, only one with a newline around it (no JSON string holds
// a raw newline); in a one-line trace, any '},{'.
//   node tests/web/split_point_test.mjs
import path from 'node:path';
import { checks, repo } from './support/harness.mjs';

const { findEventSplit } = await import(path.join(repo, 'web/split-point.mjs'));
const { check, finish } = checks('split point');
const bytes = (text) => new TextEncoder().encode(text);

const pretty = '{"traceEvents": [\n  {"ph": "X", "name": "a},{b", "args": {"l": [{"x": 1}, {"y": 2}]}},\n  {"ph": "X", "name": "c"}\n]}';
const comma = pretty.indexOf('},\n  {') + 1;
check(findEventSplit(bytes(pretty), 0, 0) === comma,
  'newlines in the file: the first cut with a newline, not the "},{" in a name nor the "}, {" in args');
check(findEventSplit(bytes(pretty), 1000, 1000) === 1000 + comma, 'offsets are the file\'s: the window starts at byte 1000');
check(findEventSplit(bytes(pretty), 0, comma + 1) === -1, 'no cut at or after the target: -1');

const compact = '{"traceEvents":[{"ph":"X","name":"a"},{"ph":"X","name":"b"},{"ph":"X","name":"c"}]}';
const first = compact.indexOf('},{') + 1;
const secondCut = compact.indexOf('},{', first) + 1;
check(findEventSplit(bytes(compact), 0, 0) === first, 'a one-line file: the first "},{"');
check(findEventSplit(bytes(compact), 0, first + 1) === secondCut, 'a one-line file: the first "},{" at or after the target');
check(findEventSplit(bytes('{"a": 1}  ,\t{"b": 2}'), 0, 0) === 10, 'whitespace (no newline) around the comma of a one-line file');
check(findEventSplit(bytes('}, {'), 0, 0) === 1, 'a candidate at the very start of the window');
check(findEventSplit(bytes('},'), 0, 0) === -1, 'a window that ends before the next event starts: -1');
check(findEventSplit(bytes('{"a": [1, 2], "b": {"c": 3}}'), 0, 0) === -1, 'no "},{" at all: -1');
finish();
