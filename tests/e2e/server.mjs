// A minimal static file server for dist/ on 127.0.0.1, for the end-to-end tests and the benchmark.
// Serves the release build exactly as a static host would (correct MIME type for wasm, no rewrites).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Serve `root` under the URL prefix `base` (e.g. "/" or "/some/subpath/"). With `gzip`, a client
 *  that accepts it gets the file's precompressed `.gz` sibling if there is one, else the file
 *  gzipped on the fly (cached), as a static host would send it. Resolves to the server. */
export function serve(root, { port = 0, base = '/', gzip = false } = {}) {
  const absRoot = resolve(root);
  const zipped = new Map();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (!url.pathname.startsWith(base)) {
        res.writeHead(404).end('not found');
        return;
      }
      let rel = decodeURIComponent(url.pathname.slice(base.length)) || 'index.html';
      const path = normalize(join(absRoot, rel));
      if (!path.startsWith(absRoot)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      const s = await stat(path).catch(() => null);
      const file = s && s.isDirectory() ? join(path, 'index.html') : path;
      const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        if (!zipped.has(file)) {
          const pre = await readFile(`${file}.gz`).catch(() => null);
          zipped.set(file, pre || gzipSync(await readFile(file), { level: 9 }));
        }
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' });
        res.end(zipped.get(file));
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}
