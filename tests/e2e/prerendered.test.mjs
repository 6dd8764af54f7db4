// End-to-end tests of the pre-rendered site (amp_site::prerender, written by `amplify prerender`
// in Trunk's post-build hook): what a reader without JavaScript, a search engine or a printer gets,
// and the live app's take-over of it.
//   node --test tests/e2e/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from './server.mjs';
import { launch, droppedByRedirect } from './browser.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIST = resolve(ROOT, 'dist');
const AMPLIFY = process.env.AMPLIFY_BIN || resolve(ROOT, 'target', 'tool', 'amplify');
const PAGES = ['home', 'subsampling', 'limits', 'accuracy', 'renyi', 'training', 'risk', 'shuffling', 'iteration'];
const FIGURES = JSON.parse(execFileSync(AMPLIFY, ['figures', '--json'], { encoding: 'utf8' }));
const pagePath = (p) => (p === 'home' ? '/' : `/${p}/`);
const fileOf = (path) => join(DIST, path, 'index.html');

let server, origin, noJs, live;

before(async () => {
  server = await serve(DIST);
  origin = `http://127.0.0.1:${server.address().port}`;
  noJs = await launch({ javaScriptEnabled: false });
  live = await launch();
});

after(async () => {
  await noJs?.close();
  await live?.close();
  server?.close();
});

/** The page's layout shift so far, not caused by input (buffered layout-shift entries). */
function layoutShift(page) {
  // The buffered entries are in the observer's queue as soon as it observes: read them at once
  // (no waiting for a callback).
  return page.evaluate(() => {
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'layout-shift', buffered: true });
    const total = observer.takeRecords().filter((e) => !e.hadRecentInput).reduce((s, e) => s + e.value, 0);
    observer.disconnect();
    return total;
  });
}

/** Open `path` in `context`, recording console errors, page errors, failed and foreign requests. */
async function open(context, path) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // Without JavaScript the browser drops the preloads of the glue and the wasm: not a problem.
    if (context === noJs && /\.(js|wasm)$/.test(r.url())) return;
    if (droppedByRedirect(path, r)) return;
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('request', (r) => { if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith('data:')) problems.push(`request left 127.0.0.1: ${r.url()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(origin + path);
  return { page, problems };
}

test('without JavaScript every page shows its prose, its controls at the defaults, its numbers and its figures as SVG', async () => {
  for (const id of PAGES) {
    const { page, problems } = await open(noJs, pagePath(id));
    assert.equal(await page.locator('h1').count(), 1, id);
    assert.ok((await page.textContent('.lede')).length > 80, `${id}: the opening paragraph`);
    const figures = FIGURES.filter((f) => f.page === id);
    assert.equal(await page.locator('svg.static-plot').count(), figures.length, `${id}: one SVG per figure`);
    for (const f of figures) {
      // Each figure has its title, a picture with drawn curves, and its caption.
      assert.equal(await page.locator(`#fig-${f.id} .figure-title`).textContent(), f.title);
      assert.ok(await page.locator(`#fig-${f.id} svg.static-plot polyline, #fig-${f.id} svg.static-plot rect`).count() > 5, `${f.id}: drawn`);
      assert.ok((await page.textContent(`#fig-${f.id} figcaption`)).length > 20, `${f.id}: caption`);
    }
    if (id !== 'home') {
      assert.ok(await page.locator('.controls input, .controls select').count() > 0, `${id}: controls`);
      // Every number shown is a number, never NaN or ∞.
      const shown = await page.$$eval('.readout output', (os) => os.map((o) => o.textContent));
      assert.ok(shown.length > 0, `${id}: readouts`);
      for (const t of shown) assert.ok(t === '—' || /^-?[0-9.,]+(e-?[0-9]+)?[%×]?$/.test(t.replace(/ /g, '')), `${id}: readout "${t}"`);
    }
    assert.deepEqual(problems, [], id);
    await page.close();
  }
  for (const f of FIGURES) {
    const { page, problems } = await open(noJs, `/embed/${f.id}/`);
    assert.equal(await page.locator('h1').textContent(), f.title);
    assert.equal(await page.locator('svg.static-plot').count(), 1, f.id);
    assert.equal(await page.locator('nav').count(), 0, f.id);
    assert.deepEqual(problems, [], f.id);
    await page.close();
  }
});

test('search engines: every document has its title, a description and the page\'s first paragraph in the HTML', () => {
  for (const id of PAGES) {
    const html = readFileSync(fileOf(pagePath(id)), 'utf8');
    const title = html.match(/<title>([^<]*)<\/title>/)?.[1] ?? '';
    const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? '';
    const lede = html.match(/<p class="lede"[^>]*>([^<]*)<\/p>/)?.[1] ?? '';
    assert.match(title, /Amplification Explorer/, id);
    assert.ok(description.length > 80, `${id}: description`);
    assert.ok(lede.length > 80, `${id}: first paragraph`);
    assert.equal(description, lede, `${id}: the description is the first paragraph`);
  }
  for (const f of FIGURES) {
    const html = readFileSync(fileOf(`/embed/${f.id}/`), 'utf8');
    assert.ok(html.includes(`<title>${f.title.replace(/&/g, '&amp;')} · Amplification Explorer</title>`), f.id);
    assert.match(html, /<meta name="description" content="[^"]{40,}"/, f.id);
    // The first paint waits for the whole embed (its figure's height depends on the controls).
    assert.ok(html.includes('<link rel="expect" href="#embed-end" blocking="render">') && html.includes('id="embed-end"'), `${f.id}: render-blocking until the end`);
  }
});

test('every pre-rendered figure is exactly the SVG the CLI writes for it at the defaults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'amp-prerender-'));
  const squares = [];
  for (const f of FIGURES) {
    const out = join(dir, `${f.id}.svg`);
    execFileSync(AMPLIFY, ['plot', f.id, '--no-title', '--width', '800', '--height', '500', '--out', out]);
    const cli = readFileSync(out, 'utf8').replace(/^<svg width="800" height="500" /, '<svg ');
    for (const path of [pagePath(f.page), `/embed/${f.id}/`]) {
      const html = readFileSync(fileOf(path), 'utf8');
      const start = html.indexOf(`<svg class="static-plot" role="img" aria-labelledby="title-${f.id}"`);
      assert.ok(start >= 0, `${f.id} on ${path}`);
      const svg = html.slice(start, html.indexOf('</svg>', start) + '</svg>'.length)
        .replace(/^<svg class="static-plot" role="img" aria-labelledby="[^"]*" aria-describedby="[^"]*" data-testid="[^"]*" /, '<svg ');
      assert.equal(svg, cli.trim(), `${f.id} on ${path}`);
    }
    // A two-panel figure's page also carries its square picture for phones, the CLI's at 500 × 500.
    const html = readFileSync(fileOf(pagePath(f.page)), 'utf8');
    const start = html.indexOf(`<svg class="static-square" role="img" aria-labelledby="title-${f.id}"`);
    if (start >= 0) {
      const square = join(dir, `${f.id}-square.svg`);
      execFileSync(AMPLIFY, ['plot', f.id, '--no-title', '--width', '500', '--height', '500', '--out', square]);
      const want = readFileSync(square, 'utf8').replace(/^<svg width="500" height="500" /, '<svg ').trim();
      const got = html.slice(start, html.indexOf('</svg>', start) + '</svg>'.length)
        .replace(/^<svg class="static-square" role="img" aria-labelledby="[^"]*" aria-describedby="[^"]*" data-testid="[^"]*" /, '<svg ');
      assert.equal(got, want, `${f.id}: square picture`);
      squares.push(f.id);
    }
  }
  assert.deepEqual(squares.sort(), ['banded-noise', 'iteration-privacy-by-position', 'known-inclusion', 'neighbour-densities', 'noise-for-target', 'taylor-orders']);
});

test('static hosts: hashed asset names, every reference resolves, precompressed copies beside each file', () => {
  const names = readdirSync(DIST);
  for (const stem of ['amplification-explorer_bg', 'amplification-explorer', 'amp-compute_bg', 'amp-compute', 'boot', 'early', 'worker', 'main']) {
    assert.ok(names.some((n) => new RegExp(`^${stem}-[0-9a-f]{12}\\.(wasm|js|css)$`).test(n)), `${stem} is content-hashed`);
  }
  for (const n of ['boot.js', 'early.js', 'worker.js', 'main.css', 'amplification-explorer.js', 'amplification-explorer_bg.wasm', 'amp-compute.js', 'amp-compute_bg.wasm']) {
    assert.ok(!names.includes(n), `${n} left unhashed`);
  }
  for (const path of [...PAGES.map(pagePath), ...FIGURES.map((f) => `/embed/${f.id}/`)]) {
    const file = fileOf(path);
    const html = readFileSync(file, 'utf8');
    for (const [, ref] of html.matchAll(/(?:href|src)="([^"#?:]+\.(?:js|css|wasm))"/g)) {
      assert.ok(existsSync(resolve(join(DIST, path), ref)), `${path}: ${ref}`);
    }
    assert.ok(existsSync(`${file}.gz`) && existsSync(`${file}.br`), `${path}: .gz and .br`);
  }
  for (const n of names.filter((x) => /\.(js|css|wasm)$/.test(x))) {
    assert.ok(names.includes(`${n}.gz`) && names.includes(`${n}.br`), `${n}: .gz and .br`);
  }
  // A size budget per module, as the precompressed file a static host sends: brotli where the
  // browser accepts it (every current one), in KB of 1,024 bytes. Issue 35 replaced issue 19's one
  // budget for the whole app (400 KB gzipped, 412 KB after issue 34) with these; the compute
  // worker's protocol (src/worker.rs, site/src/job.rs) costs the wasm 12.2 KB brotli
  // (docs/performance.md, "Download size"). The wasm is also held to its gzip size, for hosts
  // without brotli.
  const BUDGET_BR = {
    // The page's WebAssembly module: what must arrive before anything is live. It was the app's
    // one module (page and compute worker) until issue 35 split off the compute module, at 370.2
    // KB brotli and 446.3 gzipped (docs/performance.md, "Download size", for what each feature
    // cost); without the heavy computations (amp_site::heavy) it is 271.6 and 324.3; starting
    // the worker on every page and moving the pre-rendered prose and pictures in took it to 273.4
    // and 326.4; issue 38's new readouts, controls and captions (and the shared timeline hook) to
    // 274.5 and 328.0; 276.2 with issue 52's tuning and audit controls, 276.8 with issue 51's six
    // library readouts (their labels and the model's sentences).
    'amplification-explorer_bg': 279,
    // The compute module (compute/): every page's numbers and every figure's chart, fetched by the
    // compute worker once the page is live (203.5 KB brotli, 236.3 gzipped, when split off; 204.8
    // and 237.9 with issue 38's readouts and captions; 208.1 with issue 50's optimal composition,
    // when the Rényi page's composition figure moved here from the page's module, which went from
    // 277.3 to 273.3; 216.6 with issue 50's many-pass last-iterate accountant (Brown Thm 3.1:
    // three batch schemes, the burn-in search, the closed form) and its figure and readouts;
    // 226.7 with issue 52's tuning (Papernot & Steinke) and audit planner, its figure and readouts;
    // 229.1 with the tuning figure; 231.9 with issue 51's library conventions (Opacus, dp_accounting,
    // TensorFlow Privacy) and their sentences).
    'amp-compute_bg': 236,
    'amp-compute': 2, // its glue
    'amplification-explorer': 7, // wasm-bindgen's glue
    'main': 3, // the stylesheet
    'boot': 0.5, 'early': 0.5, // the loaders
    'worker': 0.6, // the worker's script, with the stand-in's queue on the page (0.5 KB)
    'content': 44, // every page's prose, fetched once the page has started (41.2 KB with issue 52's tuning and audit passages and their controls' help; 39.2 KB with issue 50's many passes and their openable proof; 36.3 KB with its corrections and missing items of the sources; 29.2 KB with banded noise, random allocation and the split and merged balls-in-bins pairs; 29.8 KB with the shuffle rounds; 31.4 KB with issue 38's passages; 34.6 KB with its openable proofs and the last missing items' passages)
  };
  const sizes = [];
  for (const [stem, kb] of Object.entries(BUDGET_BR)) {
    const name = names.find((n) => new RegExp(`^${stem}-[0-9a-f]{12}\\.(wasm|js|css|json)$`).test(n));
    assert.ok(name, `${stem}: no such module`);
    const br = readFileSync(join(DIST, `${name}.br`)).length / 1024;
    sizes.push(`${stem} ${br.toFixed(1)} KB (budget ${kb})`);
    assert.ok(br <= kb, `${stem} ships ${br.toFixed(1)} KB brotli (budget ${kb} KB); all: ${sizes.join(', ')}`);
  }
  const home = readFileSync(join(DIST, 'index.html.br')).length / 1024;
  assert.ok(home <= 6, `the home document ships ${home.toFixed(1)} KB brotli (budget 6 KB)`);
  const wasm = names.find((n) => /^amplification-explorer_bg-[0-9a-f]{12}\.wasm$/.test(n));
  const wasmGz = readFileSync(join(DIST, `${wasm}.gz`)).length / 1024;
  // 330 until 2026-12-03; 330.7 with readouts shown only while their run shape is in use.
  assert.ok(wasmGz <= 333, `the page's wasm ships ${wasmGz.toFixed(1)} KB gzipped (budget 333 KB)`);
});

test('the live app replaces the pre-rendered page in place: nothing moves, no stale element stays', async () => {
  for (const id of PAGES) {
    const { page, problems } = await open(live, pagePath(id));
    await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
    await page.waitForFunction(() => [...document.querySelectorAll('canvas')].every((c) => c.dataset.painted === 'true'), null, { timeout: 60000 });
    assert.equal(await page.locator('[data-prerendered]').count(), 0, id);
    const shift = await layoutShift(page);
    assert.ok(shift <= 0.05, `${id}: layout shift ${shift}`);
    assert.deepEqual(problems, [], id);
    await page.close();
  }
  // On a phone a two-panel figure is square, pre-rendered and live alike, and nothing moves.
  for (const id of ['subsampling', 'iteration']) {
    const box = (p, sel) => p.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; });
    const two = id === 'subsampling' ? 'neighbour-densities' : 'iteration-privacy-by-position';
    const still = await noJs.newPage();
    await still.setViewportSize({ width: 360, height: 800 });
    await still.goto(origin + pagePath(id));
    const [sw, sh] = await box(still, `#fig-${two} svg.static-square`);
    assert.ok(Math.abs(sw - sh) <= 1 && sw > 250, `${id}: square picture ${sw} × ${sh}`);
    assert.ok(await still.locator(`#fig-${two} svg.static-plot`).isHidden(), `${id}: the wide picture is hidden`);
    await still.close();
    const page = await live.newPage();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(origin + pagePath(id));
    await page.waitForFunction(() => [...document.querySelectorAll('canvas')].every((c) => c.dataset.painted === 'true'), null, { timeout: 60000 });
    const [cw, ch] = await box(page, `[data-testid=canvas-${two}]`);
    assert.ok(Math.abs(cw - sw) <= 1 && Math.abs(ch - sh) <= 1, `${id}: canvas ${cw} × ${ch}, picture ${sw} × ${sh}`);
    const shift = await layoutShift(page);
    assert.ok(shift <= 0.05, `${id} on a phone: layout shift ${shift}`);
    await page.close();
  }
});

test('links of earlier versions land on the same view, with their settings and fragment', async () => {
  const { page, problems } = await open(live, '/?page=training&sigma=2&steps=100#fig-tpr-vs-steps');
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
  const url = new URL(page.url());
  assert.equal(url.pathname, '/training/');
  assert.equal(url.searchParams.get('sigma'), '2');
  assert.equal(url.hash, '#fig-tpr-vs-steps');
  assert.equal(await page.inputValue('[data-testid=field-sigma]'), '2');
  await page.close();
  const embed = await open(live, '/?embed=sample-budget&eps=2');
  await embed.page.waitForFunction(() => document.documentElement.dataset.app === 'live');
  assert.equal(new URL(embed.page.url()).pathname, '/embed/sample-budget/');
  assert.equal(await embed.page.inputValue('[data-testid=field-eps]'), '2');
  await embed.page.close();
  assert.deepEqual([...problems, ...embed.problems], []);
});

test('a link with other settings marks the pre-rendered numbers as updating until the app replaces them', async () => {
  // Without JavaScript nothing runs: the static page shows its defaults, not marked.
  const still = await open(noJs, '/subsampling/?eps=3');
  assert.equal(await still.page.locator('[data-testid=static-status]').isVisible(), false);
  await still.page.close();
  // With it, the wasm is held back so the static page can be looked at first.
  const page = await live.newPage();
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route(/\.wasm$/, async (route) => { await held; await route.continue(); });
  await page.goto(`${origin}/subsampling/?eps=3`);
  await page.waitForSelector('[data-testid=static-status]', { state: 'visible' });
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('stale')), true);
  release();
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('stale')), false);
  assert.equal(await page.inputValue('[data-testid=field-eps]'), '3');
  await page.close();
});
