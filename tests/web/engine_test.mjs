// The worker protocol under node (no browser, no build): web/messages.mjs and the
// engine client web/engine.mjs, with a stand-in for the worker.
//   node tests/web/engine_test.mjs
// The page and the worker name message types through messages.mjs only; a router
// refuses a message of no known type and insists on one handler per type; the engine
// posts each request with the current load's id, drops what the worker says about a
// replaced load, and stops the worker when it fails. Exits non-zero on any failure.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { repo, checks } from './support/harness.mjs';

const web = path.join(repo, 'web');
const { FromReader, FromWorker, ToReader, ToWorker, messageRouter } = await import(path.join(web, 'messages.mjs'));
const { createEngine } = await import(path.join(web, 'engine.mjs'));
const { check, finish } = checks('engine');

const threw = (f) => {
  try {
    f();
  } catch {
    return true;
  }
  return false;
};

// --- one enum, imported by both ends --------------------------------------------------
const source = (file) => readFileSync(path.join(web, file), 'utf8');
const importsMessages = /import\s*\{[^}]*\}\s*from\s*'\.\/messages\.mjs'/;
check(importsMessages.test(source('worker.mjs')), 'worker.mjs imports its message types from messages.mjs');
check(importsMessages.test(source('engine.mjs')), 'engine.mjs imports its message types from messages.mjs');
check(importsMessages.test(source('read-worker.mjs')), 'read-worker.mjs imports its message types from messages.mjs');
// A message type spelled out as a string where a message's type is set or compared.
const typeNames = [...new Set([ToWorker, FromWorker, ToReader, FromReader].flatMap((kinds) => Object.values(kinds)))];
const literal = new RegExp(`type\\s*(?::|===|!==|==)\\s*['"\`](${typeNames.join('|')})['"\`]`);
const modules = ['.', 'views', 'actions'].flatMap((dir) =>
  readdirSync(path.join(web, dir)).filter((f) => f.endsWith('.mjs')).map((f) => path.join(dir, f)));
const spelled = modules.filter((f) => f !== 'messages.mjs' && literal.test(source(f)));
check(spelled.length === 0, `no page module spells a message type out (${spelled.join(', ') || 'none does'})`);
check(new Set(Object.values(ToWorker)).size === Object.values(ToWorker).length
  && new Set(Object.values(FromWorker)).size === Object.values(FromWorker).length, 'each direction names every type once');
check(Object.isFrozen(ToWorker) && Object.isFrozen(FromWorker), 'the enums cannot be changed at run time');

// --- messageRouter ----------------------------------------------------------------------
const handled = [];
const toWorker = Object.fromEntries(Object.values(ToWorker).map((t) => [t, (m) => handled.push(m)]));
const route = messageRouter(ToWorker, toWorker);
check(route({ type: ToWorker.OPEN, id: 1 }) === true && handled.length === 1 && handled[0].id === 1, 'a known message reaches its handler');
check(route({ type: 'unload', id: 2 }) === false, 'a message of an unknown type is refused');
check(route({ type: 'toString' }) === false && route({ type: '__proto__' }) === false, 'names of Object.prototype are no message types');
check(route(null) === false && route('open') === false && route({}) === false && route({ type: 7 }) === false,
  'something that is no message is refused');
check(handled.length === 1, 'a refused message reaches no handler');
const { [ToWorker.CYCLES]: _, ...missingOne } = toWorker;
check(threw(() => messageRouter(ToWorker, missingOne)), 'a router without a handler for every type is refused when made');
check(threw(() => messageRouter(ToWorker, { ...toWorker, unload: () => {} })), 'a router with a handler for no type is refused when made');

// --- the engine client with a stand-in worker ------------------------------------------------
function fakeWorker() {
  const worker = { posted: [], terminated: false, onmessage: null, onerror: null };
  worker.postMessage = (m) => worker.posted.push(m);
  worker.terminate = () => { worker.terminated = true; };
  worker.say = (data) => worker.onmessage({ data });
  return worker;
}

const heard = [];
const handlers = Object.fromEntries(['onReady', 'onProgress', 'onDone', 'onReport', 'onHta', 'onCycles', 'onCyclesError', 'onSol', 'onSolar', 'onComparison', 'onRanks', 'onError', 'onCrash']
  .map((name) => [name, (m) => heard.push([name, m])]));
const workers = [];
const engine = createEngine(handlers, { createWorker: () => { workers.push(fakeWorker()); return workers.at(-1); } });
check(engine.requestReport({ device: '', corrected: false }) === false && workers.length === 0,
  'no request before there is a worker');

engine.start();
const first = workers[0];
check(engine.running && workers.length === 1, 'start makes the worker');
engine.start();
check(workers.length === 1, 'start again keeps the same worker');
first.say({ type: FromWorker.READY, version: 'v', devices: ['H100'] });
check(heard.at(-1)?.[0] === 'onReady', 'READY (which carries no id) reaches onReady');

engine.open({ file: 'a.json' });
check(JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.OPEN, file: 'a.json', id: 1 }),
  'open posts OPEN with the source and a new load id');
engine.open({ url: 'b.json', name: 'b' });
check(first.posted.at(-1).id === 2 && engine.currentLoad === 2, 'the next open has the next id');
check(engine.requestComparison({ swapped: true }) &&
  JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.COMPARE, swapped: true, id: 2 }),
'requestComparison posts COMPARE for the current load');
check(engine.requestComparison({ swapped: false, names: ['main', 'pr'] }) &&
  JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.COMPARE, swapped: false, names: ['main', 'pr'], id: 2 }),
'requestComparison posts the runs\' names');

heard.length = 0;
first.say({ type: FromWorker.PROGRESS, id: 1, phase: 'read', done: 1, total: 2, events: 0 });
first.say({ type: FromWorker.DONE, id: 1 });
check(heard.length === 0, 'messages about a replaced load are dropped');
for (const [type, handler] of [[FromWorker.PROGRESS, 'onProgress'], [FromWorker.DONE, 'onDone'], [FromWorker.REPORT, 'onReport'],
  [FromWorker.HTA, 'onHta'], [FromWorker.CYCLES, 'onCycles'], [FromWorker.CYCLES_ERROR, 'onCyclesError'], [FromWorker.SOLAR, 'onSolar'],
  [FromWorker.COMPARISON, 'onComparison'], [FromWorker.RANKS, 'onRanks'], [FromWorker.ERROR, 'onError']]) {
  heard.length = 0;
  first.say({ type, id: 2 });
  check(heard.length === 1 && heard[0][0] === handler && heard[0][1].type === type, `${type} about the current load reaches ${handler}`);
}

heard.length = 0;
const errors = [];
const consoleError = console.error;
console.error = (...args) => errors.push(args);
first.say({ type: 'finished', id: 2 });
console.error = consoleError;
check(heard.length === 0 && errors.length === 1, 'an unknown message from the worker reaches no handler and is reported on the console');

check(engine.requestReport({ device: 'MI300X', corrected: true, includeUnlinked: true }) === true
  && JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.REPORT, device: 'MI300X', corrected: true, includeUnlinked: true, id: 2 }),
  'requestReport posts REPORT with its options for the current load');
check(engine.requestCycles({ mode: 'llm', order: 'device' }) === true
  && JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.CYCLES, mode: 'llm', order: 'device', id: 2 }),
  'requestCycles posts CYCLES for the current load');
check(engine.requestHta({ device: 'MI300X', htaKernelGapUs: 5 }) === true
  && JSON.stringify(first.posted.at(-1)) === JSON.stringify({ type: ToWorker.HTA, device: 'MI300X', htaKernelGapUs: 5, id: 2 }),
  'requestHta posts HTA with the report\'s options for the current load');

const abandoned = engine.abandon();
check(abandoned === 3 && engine.currentLoad === 3, 'abandon makes a new load id and returns it');
heard.length = 0;
first.say({ type: FromWorker.DONE, id: 2 });
check(heard.length === 0, 'an abandoned load is heard no more');

engine.stop();
check(first.terminated && !engine.running, 'stop terminates the worker');
check(engine.requestCycles({ mode: 'all', order: 'stream' }) === false, 'no request after stop');

engine.open({ file: 'c.json' });
const second = workers[1];
check(workers.length === 2 && second.posted.at(-1).id === 4, 'open after stop makes a new worker and posts to it');
heard.length = 0;
let prevented = false;
second.onerror({ preventDefault: () => { prevented = true; } });
check(second.terminated && !engine.running, 'a failing worker is stopped');
check(prevented && heard.length === 1 && heard[0][0] === 'onCrash', 'a failing worker reaches onCrash (and the browser is not left to report it)');

// An Execution Trace opened with no trace open: the worker is started for it.
check(engine.requestSolar({ file: 'et.json', device: '' }) === true && workers.length === 3 &&
  JSON.stringify(workers[2].posted.at(-1)) === JSON.stringify({ type: ToWorker.SOLAR, file: 'et.json', device: '', id: 4 }),
'requestSolar starts a worker when none runs and posts SOLAR for the current load');

// Rank traces: a new load on the running worker.
engine.openRanks([{ file: 'r0.json', name: 'r0.json' }, { file: 'r1.json', name: 'r1.json' }]);
const third = workers[2];
check(JSON.stringify(third.posted.at(-1)) === JSON.stringify({ type: ToWorker.OPEN_RANKS,
  files: [{ file: 'r0.json', name: 'r0.json' }, { file: 'r1.json', name: 'r1.json' }], id: 5 }) && engine.currentLoad === 5,
'openRanks posts OPEN_RANKS with the files and a new load id');

finish();
