// Phone benchmark: what a reader on a phone sees, and when. Reports figures, never fails on noise.
// Needs a release build in dist/ (`trunk build --release`). Usage:
//   node bench/phone.mjs [--loads 3] [--readme] [--only training]
//   node bench/phone.mjs --from-results    (rewrite the docs/performance.md block from bench/phone-results.json)
// Lighthouse's mobile profile, applied through the DevTools protocol: 1.6 Mbps down, 750 kbps up,
// 150 ms round trip, the CPU slowed 4×, the browser cache off, a 412 × 823 viewport. dist/ is
// served compressed as a static host picks: the precompressed .br beside a file (Chromium accepts
// brotli), else .gz. For every page and for an embed of each page's first figure, the
// median over the loads of:
//   - first contentful paint (FCP) and largest contentful paint (LCP), from Chromium's own entries;
//   - interactive: the end of the first `redraw:<figure-id>` measure (the live app's first figure
//     drawn), from navigation start; on a page without figures, the live app's take-over
//     (the `app-live` mark);
//   - layout shift: the sum of the layout-shift entries not caused by input (CLS as Chromium
//     reports it for the load).
// Also the same loads unthrottled, and the shipped bytes (gzip and brotli).
// Writes bench/phone-results.json; with --readme, replaces the block between the phone markers
// in docs/performance.md.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { resolve, extname } from 'node:path';
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const LOADS = Number(arg('loads', 3));
const ONLY = arg('only', null);
const PAGES = ['home', 'subsampling', 'limits', 'accuracy', 'renyi', 'training', 'risk', 'shuffling', 'iteration']
  .filter((p) => !ONLY || p === ONLY);
// Lighthouse's "slow 4G" mobile throttling (its defaults, simulated here by the browser itself).
const PHONE = { latency: 150, down: (1.6e6 / 8), up: (750e3 / 8), cpu: 4, width: 412, height: 823 };

const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = Math.floor(v.length / 2);
  return Math.round(v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2);
};

// Observers installed before any script of the page runs.
function observe() {
  window.__lcp = 0;
  window.__cls = 0;
  new PerformanceObserver((l) => l.getEntries().forEach((e) => { window.__lcp = e.startTime; })).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => { if (!e.hadRecentInput) window.__cls += e.value; })).observe({ type: 'layout-shift', buffered: true });
}

/** One cold load of `path`; the numbers in ms from navigation start. */
async function load(context, origin, path, throttled) {
  const page = await context.newPage();
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: PHONE.latency, downloadThroughput: PHONE.down, uploadThroughput: PHONE.up,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
  }
  await page.addInitScript(observe);
  await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 120000 });
  // The live app has drawn its first figure (or, for a page without figures, taken over).
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live'
    && (performance.getEntriesByType('measure').some((m) => m.name.startsWith('redraw:')) || !document.querySelector('canvas')),
  null, { timeout: 120000 });
  // First paint may come after the first figure's redraw when long tasks follow it: wait for it.
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60000 })
    .catch(() => {});
  // Let LCP and layout shifts settle.
  await page.waitForTimeout(throttled ? 1500 : 300);
  const r = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const redraw = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('redraw:'))
      .map((m) => m.startTime + m.duration);
    return {
      fcp: fcp ? fcp.startTime : null,
      lcp: window.__lcp || null,
      interactive: redraw.length ? Math.min(...redraw) : performance.getEntriesByName('app-live')[0]?.startTime ?? null,
      cls: window.__cls,
    };
  });
  // Each load cold and on its own: where the page started its compute worker, wait until the
  // worker has fetched and compiled the compute module before the next load begins (on this
  // 2-core machine that background work would otherwise fall into the next load).
  await page.waitForFunction(() => document.documentElement.dataset.computeState === 'ready'
    || !document.documentElement.dataset.view || document.documentElement.dataset.view.startsWith('embed/')
      && document.documentElement.dataset.compute !== 'worker', null, { timeout: 60000 }).catch(() => {});
  await page.close();
  return r;
}

async function measure(context, origin, path, throttled) {
  const runs = [];
  for (let i = 0; i < LOADS; i++) runs.push(await load(context, origin, path, throttled));
  return {
    fcp_ms: median(runs.map((r) => r.fcp)),
    lcp_ms: median(runs.map((r) => r.lcp)),
    interactive_ms: median(runs.map((r) => r.interactive)),
    cls: Math.round(1000 * Math.max(...runs.map((r) => r.cls))) / 1000,
  };
}

/** The first figure each page draws (its embed is measured too). */
async function firstFigure(context, origin, pageName) {
  const page = await context.newPage();
  await page.goto(`${origin}${pageName === 'home' ? '/' : `/${pageName}/`}`);
  const id = await page.waitForSelector('canvas[data-testid^=canvas-]', { timeout: 60000 })
    .then((c) => c.getAttribute('data-testid')).catch(() => null);
  await page.close();
  return id ? id.replace(/^canvas-/, '') : null;
}

/** Each module of the app (wasm, glue, loaders, compute worker, stylesheet, prose) and the home
 *  document, as a static host sends them: the precompressed .gz and .br beside each file
 *  (tools/precompress, tools/postbuild.mjs), else the file compressed here at the highest level. */
function shipped() {
  const files = readdirSync(DIST).filter((f) => ['.wasm', '.js', '.css', '.html', '.json'].includes(extname(f)));
  const pre = (f, ext, make) => {
    try { return readFileSync(resolve(DIST, `${f}.${ext}`)).length; } catch { return make(readFileSync(resolve(DIST, f))).length; }
  };
  const kb = (n) => Math.round(n / 102.4) / 10;
  const modules = files.map((f) => ({
    name: f.replace(/-[0-9a-f]{12}(?=\.)/, ''),
    gzip_kb: kb(pre(f, 'gz', (b) => gzipSync(b, { level: 9 }))),
    brotli_kb: kb(pre(f, 'br', (b) => brotliCompressSync(b))),
  }));
  // What a page needs before it is live: all but the prose (fetched after), the worker's script
  // and the compute module (fetched by the worker once the page is live).
  const start = modules.filter((m) => !/^(content|worker|amp-compute|amp-compute_bg)\./.test(m.name));
  const sum = (xs, k) => Math.round(10 * xs.reduce((a, m) => a + m[k], 0)) / 10;
  return {
    gzip_kb: sum(start, 'gzip_kb'),
    brotli_kb: sum(start, 'brotli_kb'),
    wasm_gzip_kb: modules.find((m) => m.name === 'amplification-explorer_bg.wasm')?.gzip_kb,
    modules,
  };
}

if (process.argv.includes('--from-results')) {
  writeReadme(JSON.parse(readFileSync(resolve(ROOT, 'bench/phone-results.json'), 'utf8')));
  process.exit(0);
}
const server = await serve(DIST, { gzip: true });
const origin = `http://127.0.0.1:${server.address().port}`;
const context = await launch();
const rows = [];
for (const p of PAGES) {
  const fig = await firstFigure(context, origin, p);
  const targets = [[`page ${p}`, p === 'home' ? '/' : `/${p}/`]];
  if (fig) targets.push([`embed ${fig}`, `/embed/${fig}/`]);
  for (const [name, path] of targets) {
    const phone = await measure(context, origin, path, true);
    const fast = await measure(context, origin, path, false);
    rows.push({ name, path, phone, unthrottled: fast });
    console.error(`${name}: phone FCP ${phone.fcp_ms} ms, LCP ${phone.lcp_ms} ms, interactive ${phone.interactive_ms} ms, CLS ${phone.cls}; unthrottled FCP ${fast.fcp_ms} ms, interactive ${fast.interactive_ms} ms`);
  }
}
await context.close();
server.close();

const chromium = (await import('node:child_process')).execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
const result = { date: new Date().toISOString().slice(0, 10), chromium, profile: PHONE, loads: LOADS, shipped: shipped(), rows };
if (ONLY) {
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
writeFileSync(resolve(ROOT, 'bench/phone-results.json'), `${JSON.stringify(result, null, 2)}\n`);

if (process.argv.includes('--readme')) writeReadme(result);

/** docs/performance.md's block between the phone markers, from a result. */
function writeReadme(result) {
  const ms = (v) => (v == null ? '—' : `${v} ms`);
  // Before the compute worker (bench/phone-before.json: issue 34's build, measured 2026-11-27 on the same machine, served gzipped).
  const before = JSON.parse(readFileSync(resolve(ROOT, 'bench/phone-before.json'), 'utf8'));
  const was = (name) => before.rows.find((r) => r.name === name)?.phone;
  const lines = [
    `Measured ${result.date} on 2 cores, ${result.chromium}, headless (\`node bench/phone.mjs\`, release build served as a static host picks: brotli). Phone: Lighthouse's mobile profile (1.6 Mbps down, 150 ms round trip, CPU slowed 4×, cache off, 412 × 823), median of ${result.loads} cold loads; "—" where Chromium reported no entry. "Before" is the same view before the compute worker (issue 35; ${before.date}, \`bench/phone-before.json\`, served gzipped).`,
    '',
    '| view | FCP (before) | LCP (before) | first live figure (before) | layout shift (before) | unthrottled FCP / first figure |',
    '|---|---|---|---|---|---|',
    ...result.rows.map((r) => {
      const b = was(r.name) || {};
      return `| ${r.name} | ${ms(r.phone.fcp_ms)} (${ms(b.fcp_ms)}) | ${ms(r.phone.lcp_ms)} (${ms(b.lcp_ms)}) | ${ms(r.phone.interactive_ms)} (${ms(b.interactive_ms)}) | ${r.phone.cls} (${b.cls ?? '—'}) | ${ms(r.unthrottled.fcp_ms)} / ${ms(r.unthrottled.interactive_ms)} |`;
    }),
    '',
    '| module | gzip | brotli |',
    '|---|---|---|',
    ...(result.shipped.modules || []).map((m) => `| ${m.name} | ${m.gzip_kb} KB | ${m.brotli_kb} KB |`),
    '',
    `What a page needs before it is live (all but the prose, the worker's script and the compute module): ${result.shipped.brotli_kb} KB brotli, ${result.shipped.gzip_kb} KB gzipped (before: ${before.shipped.brotli_kb} KB and ${before.shipped.gzip_kb} KB). The compute worker fetches its script and the compute module (amp-compute) once the page is live. KB = 1,024 bytes. Targets (issue 35): FCP ≤ 0.8 s, first live figure ≤ 2.5 s, layout shift ≤ 0.05.`,
  ];
  const path = resolve(ROOT, 'docs/performance.md');
  const text = readFileSync(path, 'utf8');
  const a = text.indexOf('<!-- phone:start -->');
  const b = text.indexOf('<!-- phone:end -->');
  if (a < 0 || b < 0) throw new Error('docs/performance.md has no phone markers');
  writeFileSync(path, `${text.slice(0, a)}<!-- phone:start -->\n${lines.join('\n')}\n${text.slice(b)}`);
}
