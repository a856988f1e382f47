// web/sniff.mjs under node: an Execution Trace is told from a Kineto trace by its
// content (plain and gzip, whatever the file is called), on the fixture pair and on
// hand-made texts.
//   node tests/web/sniff_test.mjs
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fixtures, checks, repo } from './support/harness.mjs';

const { traceKind, topLevelKind } = await import(path.join(repo, 'web/sniff.mjs'));
const { check, finish } = checks('sniff');

const pair = path.join(fixtures, 'param-et-linear');
const et = readFileSync(path.join(pair, 'linear_et.json.gz'));
const kineto = readFileSync(path.join(pair, 'linear_kineto.json.gz'));
check(await traceKind(new Blob([et])) === 'et', 'linear_et.json.gz (gzip) is an Execution Trace');
check(await traceKind(new Blob([gunzipSync(et)])) === 'et', 'linear_et.json (plain) is an Execution Trace');
check(await traceKind(new Blob([kineto])) === 'kineto', 'linear_kineto.json.gz is a Kineto trace');
check(await traceKind(new Blob([gunzipSync(kineto)])) === 'kineto', 'linear_kineto.json (plain) is a Kineto trace');
check(await traceKind(new Blob(['not json at all'])) === 'unknown', 'text that is no JSON is unknown');
check(await traceKind(new Blob([Uint8Array.of(0x1f, 0x8b, 1, 2, 3)])) === 'unknown', 'a broken gzip is unknown');

check(topLevelKind('{"schema": "1.0.1", "pid": 3, "nodes": [') === 'et', 'cut after "nodes": still an ET');
check(topLevelKind('{"deviceProperties": [{"nodes": 2}], "traceEvents": [') === 'kineto', 'a nested "nodes" key is not top-level');
check(topLevelKind('{"note": "\\"nodes\\": [", "traceEvents": []}') === 'kineto', 'a key inside a string is no key');
check(topLevelKind('{"nodes": [], "traceEvents": []}') === 'et', 'the first of the two keys decides');
check(topLevelKind('{"schema": "1.0.1", "pid": 3') === 'unknown', 'neither key in the text: unknown');
check(topLevelKind('["nodes", "traceEvents"]') === 'unknown', 'array items are no keys');
finish();
