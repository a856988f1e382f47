#!/usr/bin/env node
// A tiny static server for the sollens page (no dependencies, GET/HEAD only).
//   node web/serve.mjs [--port 8080] [--host 127.0.0.1] [--root DIR]...
// Serves, first match wins: web/ (the page's sources, so edits show on reload),
// then build/wasm/web/ (sollens.mjs, sollens.wasm and samples/, copied there by the
// wasm build). --port 0 picks a free port. Prints "sollens page: http://HOST:PORT/"
// once listening. The page itself is static: any static host serving the
// build/wasm/web/ folder with these MIME types works the same.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let port = 8080;
let host = '127.0.0.1';
const roots = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => {
    if (i + 1 >= args.length) usage(`${a} needs a value`);
    return args[++i];
  };
  if (a === '--port') port = Number(value());
  else if (a === '--host') host = value();
  else if (a === '--root') roots.push(path.resolve(value()));
  else if (a === '--help' || a === '-h') usage();
  else usage(`unknown argument '${a}'`);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) usage('--port needs a number 0..65535');
if (roots.length === 0) roots.push(path.join(repo, 'web'), path.join(repo, 'build/wasm/web'));

function usage(problem) {
  if (problem) console.error(`serve.mjs: ${problem}`);
  console.error('usage: node web/serve.mjs [--port 8080] [--host 127.0.0.1] [--root DIR]...');
  process.exit(problem ? 2 : 0);
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const HIDDEN = new Set(['serve.mjs']);  // the server is not part of the site

function resolve(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.endsWith('/')) rel += 'index.html';
  rel = path.posix.normalize(rel).replace(/^\/+/, '');
  if (rel.startsWith('..') || rel.includes('\0') || HIDDEN.has(rel)) return null;
  for (const root of roots) {
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep)) continue;
    try {
      const st = statSync(file);
      if (st.isFile()) return { file, size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      // not in this root
    }
  }
  return null;
}

const server = createServer((req, res) => {
  const send = (status, text) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
  const url = new URL(req.url, 'http://localhost');
  const found = resolve(url.pathname);
  if (!found) return send(404, 'not found\n');
  // Revalidated on every load (no-cache), answered 304 while unchanged: edits show at
  // once, and the browser keeps sollens.wasm's compiled code with its cached copy
  // (Chrome's wasm code cache), so a later visit starts from optimized code.
  const etag = `"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
  const headers = {
    'Cache-Control': 'no-cache',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    return res.end();
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': MIME[path.extname(found.file)] ?? 'application/octet-stream',
    'Content-Length': found.size,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(found.file).pipe(res);
});
server.on('error', (e) => {
  console.error(`serve.mjs: cannot listen on ${host}:${port}: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`sollens page: http://${host}:${actual}/`);
  for (const root of roots) console.log(`  serving ${root}`);
});
