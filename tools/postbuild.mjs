// The last step of a release build (scripts/postbuild.sh, after `amplify prerender`):
//   - comments out of the stylesheet; the loaders and wasm-bindgen's glue minified (terser);
//   - content-hashed names for the assets (main-<hash>.css, boot-<hash>.js, …), so that a deploy
//     never mixes old and new files; every reference in the HTML, the loader and wasm-bindgen's
//     glue is rewritten to match (the CSP is unchanged: everything stays same-origin);
//   - a preload of the wasm and the glue at the top of every document, so their download starts
//     with the page;
//   - precompressed .br (quality 11) and .gz copies of every text file and the wasm, for static
//     hosts that serve them as they are (the wasm's .gz from PRECOMPRESS, tools/precompress's
//     binary: Zopfli).
// Usage: node tools/postbuild.mjs DIST [PRECOMPRESS]
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, renameSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { minify } from 'terser';

const dist = process.argv[2];
if (!dist) {
  console.error('postbuild: usage: node tools/postbuild.mjs DIST');
  process.exit(1);
}

const files = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? files(p) : [p];
});
const hash = (buf) => createHash('sha256').update(buf).digest('hex').slice(0, 12);
const read = (name) => readFileSync(join(dist, name), 'utf8');
const write = (name, text) => writeFileSync(join(dist, name), text);

// Rename one asset to name-<hash>.ext (after its own references were rewritten); returns the name.
function hashed(name) {
  const buf = readFileSync(join(dist, name));
  const dot = name.lastIndexOf('.');
  const out = `${name.slice(0, dot)}-${hash(buf)}${name.slice(dot)}`;
  renameSync(join(dist, name), join(dist, out));
  return out;
}

// Comments out of the stylesheet (they explain the source, not the page): CSS comments and runs
// of white space. Its Subresource Integrity hash in the documents is recomputed below.
write('main.css', read('main.css').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').trim());
// The scripts minified with terser (npm): the two loaders and wasm-bindgen's glue (an ES module;
// its import names are property keys, which are kept).
for (const [n, module] of [['boot.js', true], ['early.js', false], ['worker.js', true], ['amplification-explorer.js', true], ['amp-compute.js', true]]) {
  const out = await minify(read(n), { module, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  write(n, out.code);
}
const cssIntegrity = `sha384-${createHash('sha384').update(readFileSync(join(dist, 'main.css'))).digest('base64')}`;

const WASM = 'amplification-explorer_bg.wasm';
const GLUE = 'amplification-explorer.js';
const names = {};
names[WASM] = hashed(WASM);
// The glue's fallback URL of the wasm, then the glue itself.
write(GLUE, read(GLUE).split(WASM).join(names[WASM]));
names[GLUE] = hashed(GLUE);
// The loader imports both.
write('boot.js', read('boot.js').split(WASM).join(names[WASM]).split(`./${GLUE}`).join(`./${names[GLUE]}`));
// The compute module (scripts/build-compute.sh): its wasm, its glue, and the worker script that
// imports the glue.
const CWASM = 'amp-compute_bg.wasm';
const CGLUE = 'amp-compute.js';
names[CWASM] = hashed(CWASM);
write(CGLUE, read(CGLUE).split(CWASM).join(names[CWASM]));
names[CGLUE] = hashed(CGLUE);
write('worker.js', read('worker.js').split(`./${CGLUE}`).join(`./${names[CGLUE]}`));
for (const n of ['boot.js', 'early.js', 'worker.js', 'main.css', 'content.json']) names[n] = hashed(n);

const html = files(dist).filter((f) => f.endsWith('.html'));
for (const f of html) {
  let text = readFileSync(f, 'utf8');
  const root = text.match(/data-root="([^"]*)"/)?.[1] ?? './';
  for (const [from, to] of Object.entries(names)) {
    text = text.split(`"${root}${from}"`).join(`"${root}${to}"`).split(`"./${from}"`).join(`"./${to}"`);
  }
  text = text.replace(/integrity="sha384-[^"]*"/, `integrity="${cssIntegrity}"`);
  // Where the app finds every page's prose (amp_site::prerender, src/prose.rs).
  text = text.replace(' data-root="', ` data-content="${root}${names['content.json']}" data-root="`);
  // Where the app starts its compute worker (src/worker.rs).
  text = text.replace(' data-root="', ` data-worker="${root}${names['worker.js']}" data-root="`);
  // First in the head after the Content-Security-Policy (which must come before any request), so
  // the largest download starts before the stylesheet and the loaders.
  const preload = `\n  <link rel="preload" href="${root}${names[WASM]}" as="fetch" type="application/wasm" crossorigin>\n  <link rel="modulepreload" href="${root}${names[GLUE]}">`;
  const csp = text.match(/<meta http-equiv="Content-Security-Policy"[^>]*>/);
  if (!csp) throw new Error(`${f}: no Content-Security-Policy meta`);
  text = text.replace(csp[0], `${csp[0]}${preload}`);
  writeFileSync(f, text);
}

// Precompressed copies, all at once (zlib's work runs on Node's thread pool, Zopfli in its own
// process): .br (quality 11) of every file, .gz of the text files (zlib's level 9), and the wasm's
// .gz from tools/precompress (Zopfli, where its 4% pays: the budgets hold the modules' gzip size).
const zopfli = process.argv[3]
  ? new Promise((ok, fail) => {
    const child = spawn(process.argv[3], [dist], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`precompress exited with ${code}`))));
  })
  : Promise.resolve();
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
let raw = 0, br = 0;
await Promise.all(files(dist).filter((f) => /\.(html|js|css|wasm|svg|json)$/.test(f)).map(async (f) => {
  const buf = readFileSync(f);
  const [b, g] = await Promise.all([
    brotli(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
    f.endsWith('.wasm') ? null : gzipped(buf, { level: 9 }),
  ]);
  writeFileSync(`${f}.br`, b);
  if (g) writeFileSync(`${f}.gz`, g);
  raw += buf.length; br += b.length;
}));
await zopfli;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.error(`postbuild: ${Object.keys(names).length} assets hashed (${names[WASM]}), ${html.length} documents; ` +
  `${kb(raw)} raw, ${kb(br)} brotli in all`);
