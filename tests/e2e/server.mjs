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

/** Serve `root` under the URL prefix `base` (e.g. "/" or "/some/subpath/"). With `gzip`, files are
 *  sent compressed as a static host sends them: a client that accepts brotli gets the file's
 *  precompressed `.br` sibling if there is one, else one that accepts gzip gets its `.gz` sibling,
 *  else the file gzipped here (cached). Resolves to the server. */
export function serve(root, { port = 0, base = '/', gzip = false } = {}) {
  const absRoot = resolve(root);
  const encoded = new Map();
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
      const accepts = req.headers['accept-encoding'] || '';
      if (gzip && /\b(br|gzip)\b/.test(accepts)) {
        const br = /\bbr\b/.test(accepts) ? await readFile(`${file}.br`).catch(() => null) : null;
        if (br) {
          res.writeHead(200, { ...headers, 'content-encoding': 'br', vary: 'accept-encoding' });
          res.end(br);
          return;
        }
        if (/\bgzip\b/.test(accepts)) {
          if (!encoded.has(file)) {
            const pre = await readFile(`${file}.gz`).catch(() => null);
            encoded.set(file, pre || gzipSync(await readFile(file), { level: 9 }));
          }
          res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' });
          res.end(encoded.get(file));
          return;
        }
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
