// Page benchmark: reports figures, never fails on noise. Needs a release build in dist/
// (`trunk build --release`). Usage:
//   node bench/page.mjs [--loads 10] [--inputs 60] [--readme]
// Measures, for each page with figures:
//   - painted: time from navigation start until every figure's first redraw has finished
//     (the end of the last `redraw:<figure-id>` performance measure);
//   - per-input redraw: the sum of all `redraw:*` measures caused by one slider input (keyboard
//     arrow on a slider), over many inputs, p50 and p95;
// and the gzipped size of what is shipped (wasm, js, css).
// Writes bench/results.json; with --readme, replaces the block between the bench markers in
// docs/performance.md.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve, extname } from 'node:path';
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const LOADS = arg('loads', 10);
const INPUTS = arg('inputs', 60);
const PAGES = [
  { page: 'subsampling', sliders: ['eps', 'p'] },
  { page: 'limits', sliders: ['eps', 'p', 'c', 'batch', 'epochs', 'total-eps', 'n'] },
  { page: 'accuracy', sliders: ['eps', 'rate', 'target-q', 'range', 'pop-variance'] },
  { page: 'renyi', sliders: ['sigma', 'q', 'alpha', 'steps', 'delta', 'target-eps'] },
  // The costliest curves: the without-replacement upper bound of a mechanism with a finite ε(∞).
  { page: 'renyi', query: 'mech=laplace&scheme=without-replacement&n=100000', sliders: ['scale', 'q', 'alpha', 'steps', 'delta'] },
  { page: 'iteration', sliders: ['iterations', 'sigma', 'delta'] },
];

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function bytes() {
  const out = { wasm: 0, js: 0, css: 0 };
  for (const f of readdirSync(DIST)) {
    const kind = { '.wasm': 'wasm', '.js': 'js', '.css': 'css' }[extname(f)];
    if (kind) out[kind] += gzipSync(readFileSync(resolve(DIST, f)), { level: 9 }).length;
  }
  out.total = out.wasm + out.js + out.css;
  return out;
}

/** Every figure painted, or refused with its reason (e.g. the Gaussian-only `rdp-cdp-lines` when the
 * mechanism is Laplace): a refused figure has no picture to wait for. */
async function allPainted(page) {
  await page.waitForFunction(() => {
    const c = [...document.querySelectorAll('canvas')];
    return c.length > 0
      && c.every((x) => x.dataset.painted === 'true' || x.closest('.plot-wrap.refused') !== null);
  });
}

async function measurePage(context, origin, { page: id, query, sliders }) {
  const url = `${origin}/${id === 'home' ? '' : `${id}/`}${query ? `?${query}` : ''}`;
  const painted = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await context.newPage();
    await page.goto(url);
    await allPainted(page);
    painted.push(await page.evaluate(() => Math.max(
      ...performance.getEntriesByType('measure').filter((m) => m.name.startsWith('redraw:'))
        .map((m) => m.startTime + m.duration))));
    await page.close();
  }
  const page = await context.newPage();
  await page.goto(url);
  await allPainted(page);
  const perInput = [];
  const perFigure = {};
  for (let i = 0; i < INPUTS; i++) {
    const slider = sliders[i % sliders.length];
    await page.focus(`[data-testid=slider-${slider}]`);
    await page.evaluate(() => performance.clearMeasures());
    // Up for the first half, back down for the second, so the values stay in a normal range.
    await page.keyboard.press(i < INPUTS / 2 ? 'ArrowRight' : 'ArrowLeft');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const ms = await page.evaluate(() => performance.getEntriesByType('measure')
      .filter((m) => m.name.startsWith('redraw:')).map((m) => [m.name.slice(7), m.duration]));
    perInput.push(ms.reduce((a, [, d]) => a + d, 0));
    for (const [fig, d] of ms) (perFigure[fig] ||= []).push(d);
  }
  await page.close();
  return {
    page: query ? `${id} (${query})` : id,
    loads: LOADS,
    painted_ms: { median: round(quantile(painted, 0.5)), max: round(Math.max(...painted)) },
    inputs: INPUTS,
    redraw_ms: { p50: round(quantile(perInput, 0.5), 2), p95: round(quantile(perInput, 0.95), 2), max: round(Math.max(...perInput), 2) },
    per_figure_p95_ms: Object.fromEntries(Object.entries(perFigure).map(([k, v]) => [k, round(quantile(v, 0.95), 2)])),
  };
}

/** The median simulation of the accuracy page at the paper's full grid (6 ε × 10 rates × 1000
 *  runs, N = 10001): time from navigation until it is done and every figure painted, and the
 *  longest task after the page's first (mount) task. */
async function measureSimulation(context, origin, population) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push([e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${origin}/accuracy/?population=${population}&runs=1000&N=10001`);
  await page.waitForSelector('[data-testid=sim-done]', { timeout: 120_000 });
  await allPainted(page);
  const doneMs = await page.evaluate(() => performance.now());
  const long = await page.evaluate(() => window.__long);
  const sliceEntries = await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name === 'sim-slice').map((m) => [m.startTime, m.duration]));
  const slices = sliceEntries.map(([, d]) => d);
  // Long tasks before the first slice are the page's start (wasm instantiation, mount, first
  // paint of every figure); the simulation's own budget applies from its first slice on.
  const firstSlice = Math.min(...sliceEntries.map(([t]) => t));
  await page.close();
  return {
    population,
    done_and_painted_ms: round(doneMs),
    slices: slices.length,
    longest_slice_ms: round(Math.max(0, ...slices)),
    start_long_tasks_ms: long.filter(([t]) => t < firstSlice).map(([, d]) => round(d)),
    long_tasks_ms: long.filter(([t]) => t >= firstSlice).map(([, d]) => round(d)),
  };
}

/** The training page at 10,000 steps of a Poisson-subsampled Gaussian (σ = 1, q = 0.01, δ = 1e-5):
 *  per slider input, the accountant's work done before the next frame (`pld:quick`: both composed
 *  PLDs; `account:quick`: every readout, calibration included) and the figures' redraws; once the
 *  controls rest, the refined numbers (`pld:fine`, `account:fine`), and the longest task. */
async function measureTraining(context, origin) {
  const url = `${origin}/training/?dataset=60000&batch=600&length=steps&steps=10000&sigma=1&delta=1e-5&target-eps=3`;
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url);
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  await allPainted(page);
  const painted = await page.evaluate(() => performance.now());
  const get = (name) => page.evaluate((n) => performance.getEntriesByType('measure').filter((m) => m.name === n).map((m) => m.duration), name);
  const sliders = ['sigma', 'batch', 'steps', 'delta'];
  const quick = { pld: [], account: [], redraw: [] };
  const fine = { pld: [], account: [] };
  const inputs = Math.min(INPUTS, 24);
  for (let i = 0; i < inputs; i++) {
    const slider = sliders[i % sliders.length];
    await page.focus(`[data-testid=slider-${slider}]`);
    await page.evaluate(() => { performance.clearMeasures(); window.__long = []; });
    await page.keyboard.press(i < inputs / 2 ? 'ArrowRight' : 'ArrowLeft');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // Work done before the next frame on the page for the figures that follow the slider: their
    // charts (computation) and redraws. (The figures the compute worker draws come after.)
    quick.redraw.push((await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('redraw:') || m.name.startsWith('chart:')).map((m) => m.duration))).reduce((a, b) => a + b, 0));
    // Rest: the quick and refined numbers and the deferred figures arrive from the compute worker
    // (src/worker.rs), which sends its measures with each answer.
    await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
    await page.waitForFunction(() => !document.querySelector('.figure-pending'));
    quick.pld.push(...await get('pld:quick'));
    quick.account.push(...await get('account:quick'));
    fine.pld.push(...await get('pld:fine'));
    fine.account.push(...await get('account:fine'));
    for (const id of ['noise-for-target', 'gaussian-noise-ratio', 'batching-comparison', 'batching-noise']) (fine[id] ||= []).push(...await get(`chart:${id}`));
    // The samplers' bands (quick while the slider moves, refined at rest): the first measure of
    // each name is the quick one, the last the refined one.
    for (const b of ['poisson', 'shuffle', 'balls-in-bins']) {
      const xs = await get(`batching:${b}`);
      if (xs.length) {
        (quick[b] ||= []).push(xs[0]);
        (fine[b] ||= []).push(xs[xs.length - 1]);
      }
    }
  }
  const longest = Math.max(0, ...await page.evaluate(() => window.__long));
  await page.close();
  // The attacker's numbers for a shuffled and a balls-in-bins loop, refined, per σ input.
  const attack = {};
  for (const b of ['shuffle', 'balls-in-bins']) {
    const p2 = await context.newPage();
    await p2.goto(`${url}&batching=${b}`);
    await p2.waitForSelector('[data-testid=accounting-status][data-state=final]');
    for (let i = 0; i < 8; i++) {
      await p2.focus('[data-testid=slider-sigma]');
      await p2.evaluate(() => performance.clearMeasures());
      await p2.keyboard.press(i < 4 ? 'ArrowRight' : 'ArrowLeft');
      await p2.waitForSelector('[data-testid=accounting-status][data-state=final]');
      await p2.waitForFunction(() => !document.querySelector('.figure-pending'));
      const xs = await p2.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name === 'batching:attack').map((m) => m.duration));
      if (xs.length) (attack[b] ||= []).push(xs[xs.length - 1]);
    }
    await p2.close();
  }
  const stat = (xs) => ({ p50: round(quantile(xs, 0.5)), p95: round(quantile(xs, 0.95)), max: round(Math.max(...xs)) });
  return {
    url: url.slice(origin.length),
    painted_ms: round(painted),
    inputs,
    quick_pld_ms: stat(quick.pld),
    quick_account_ms: stat(quick.account),
    quick_redraw_ms: stat(quick.redraw),
    fine_pld_ms: stat(fine.pld),
    fine_account_ms: stat(fine.account),
    deferred_figures_ms: Object.fromEntries(['noise-for-target', 'gaussian-noise-ratio', 'batching-comparison', 'batching-noise'].map((id) => [id, stat(fine[id])])),
    samplers_quick_ms: Object.fromEntries(['poisson', 'shuffle', 'balls-in-bins'].map((b) => [b, stat(quick[b] || [0])])),
    samplers_fine_ms: Object.fromEntries(['poisson', 'shuffle', 'balls-in-bins'].map((b) => [b, stat(fine[b] || [0])])),
    attack_fine_ms: Object.fromEntries(Object.entries(attack).map(([b, xs]) => [b, stat(xs)])),
    longest_task_last_input_ms: round(longest),
  };
}

/** The risk page at 10,000 steps of a Poisson-subsampled Gaussian (σ = 1, q = 0.01): per input
 *  on the FPR slider (the composed PLD is reused), the trade-off curve computed and redrawn
 *  (`chart:` + `redraw:tradeoff-curve`; the issue's target is ≤ 16 ms p95) and all quick readouts
 *  (`risk:quick`, the four inverses included); per input on the σ slider (a new composition)
 *  the same; and once the controls rest the refined readouts and the deferred figures. */
async function measureRisk(context, origin) {
  const url = `${origin}/risk/?mech=gaussian&sigma=1&q=0.01&steps=10000&fpr=0.01&delta=1e-5&target-tpr=0.05&target-eps=3`;
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  await allPainted(page);
  const painted = await page.evaluate(() => performance.now());
  const get = (name) => page.evaluate((n) => performance.getEntriesByType('measure').filter((m) => m.name === n).map((m) => m.duration), name);
  const got = {};
  const push = (k, xs) => (got[k] ||= []).push(...xs);
  const inputs = Math.min(INPUTS, 24);
  for (const slider of ['fpr', 'sigma']) {
    for (let i = 0; i < inputs; i++) {
      await page.focus(`[data-testid=slider-${slider}]`);
      await page.evaluate(() => performance.clearMeasures());
      await page.keyboard.press(i < inputs / 2 ? 'ArrowRight' : 'ArrowLeft');
      // Everything on this page comes from the compute worker, which sends its measures with
      // each answer (src/worker.rs): wait for the rest, then read them.
      await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
      await page.waitForFunction(() => !document.querySelector('.figure-pending'));
      const curve = [...await get('chart:tradeoff-curve'), ...await get('redraw:tradeoff-curve')].reduce((a, b) => a + b, 0);
      push(`${slider}:curve`, [curve]);
      push(`${slider}:readouts`, await get('risk:quick'));
      push('fine', await get('risk:fine'));
      for (const id of ['tpr-vs-steps', 'noise-for-risk']) push(id, await get(`chart:${id}`));
    }
  }
  await page.close();
  const stat = (xs) => (xs.length ? { p50: round(quantile(xs, 0.5)), p95: round(quantile(xs, 0.95)), max: round(Math.max(...xs)) } : null);
  return { url: url.slice(origin.length), painted_ms: round(painted), inputs, ...Object.fromEntries(Object.entries(got).map(([k, v]) => [k, stat(v)])) };
}

/** The shuffling page at n = 10⁶ users (ε₀ = 1, δ = 1e-6, R = 100 rounds): per ε₀ or n slider
 *  input, every bound once, the exact clone bound and the published method's range included
 *  (`shuffle:table`; the issue's target is ≤ 50 ms for the clone bound), the inverse for the
 *  target (`shuffle:inverse`), the R-round band with the classic composition (`shuffle:rounds`
 *  refined, `shuffle:rounds-quick` while moving; issue 37's target ≤ 100 ms), its inverse and the
 *  attacker; and the deferred figures once the controls rest. */
async function measureShuffling(context, origin) {
  const url = `${origin}/shuffling/?eps0=1&users=1000000&delta=1e-6&target-eps=0.1`;
  const page = await context.newPage();
  await page.goto(url);
  await allPainted(page);
  const painted = await page.evaluate(() => performance.now());
  const get = (name) => page.evaluate((n) => performance.getEntriesByType('measure').filter((m) => m.name === n).map((m) => m.duration), name);
  const names = ['shuffle:table', 'shuffle:inverse', 'shuffle:rounds', 'shuffle:rounds-quick', 'shuffle:inverse-rounds', 'shuffle:attack'];
  const figs = ['shuffle-epsilon-vs-users', 'shuffle-epsilon-vs-local', 'shuffle-epsilon-vs-rounds', 'shuffle-tradeoff', 'shuffle-vs-subsample', 'error-central-local-shuffle'];
  const got = Object.fromEntries([...names, ...figs].map((n) => [n, []]));
  const inputs = Math.min(INPUTS, 20);
  for (let i = 0; i < inputs; i++) {
    await page.focus(`[data-testid=slider-${i % 2 ? 'users' : 'eps0'}]`);
    await page.evaluate(() => performance.clearMeasures());
    await page.keyboard.press(i < inputs / 2 ? 'ArrowRight' : 'ArrowLeft');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForFunction(() => !document.querySelector('.figure-pending'));
    await page.waitForFunction(() => !document.querySelector('[data-numbers=pending]'), null, { timeout: 180_000 });
    for (const n of names) got[n].push(...await get(n));
    await allPainted(page);
    for (const f of figs) got[f].push(...await get(`chart:${f}`));
  }
  await page.close();
  const stat = (xs) => (xs.length ? { p50: round(quantile(xs, 0.5)), p95: round(quantile(xs, 0.95)), max: round(Math.max(...xs)) } : null);
  return { url: url.slice(origin.length), painted_ms: round(painted), inputs, ...Object.fromEntries(Object.entries(got).map(([k, v]) => [k, stat(v)])) };
}

const server = await serve(DIST);
const origin = `http://127.0.0.1:${server.address().port}`;
const context = await launch();
// BENCH_ONLY=training measures the training page alone (prints its JSON, writes nothing).
if (process.env.BENCH_ONLY === 'shuffling') {
  console.log(JSON.stringify(await measureShuffling(context, origin), null, 2));
  await context.close();
  server.close();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'risk') {
  console.log(JSON.stringify(await measureRisk(context, origin), null, 2));
  await context.close();
  server.close();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'training') {
  console.log(JSON.stringify(await measureTraining(context, origin), null, 2));
  await context.close();
  server.close();
  process.exit(0);
}
const pages = [];
for (const p of PAGES) pages.push(await measurePage(context, origin, p));
const training = await measureTraining(context, origin);
const risk = await measureRisk(context, origin);
const shuffling = await measureShuffling(context, origin);
const simulations = [];
for (const pop of ['lognormal', 'bimodal']) simulations.push(await measureSimulation(context, origin, pop));
await context.close();
server.close();

const chromium = (await import('node:child_process')).execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const result = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${(await import('node:os')).cpus().length} cores, ${chromium}, headless, device pixel ratio 1`,
  bytes_gzip: bytes(),
  pages,
  training,
  risk,
  shuffling,
  simulations,
};
writeFileSync(resolve(ROOT, 'bench', 'results.json'), JSON.stringify(result, null, 2) + '\n');

const figsLine = (s) => ['shuffle-epsilon-vs-users', 'shuffle-epsilon-vs-local', 'shuffle-epsilon-vs-rounds', 'shuffle-tradeoff', 'shuffle-vs-subsample', 'error-central-local-shuffle'].map((f) => `${f} ${s[f]?.p50 ?? '—'} ms`).join(', ');
const kb = (b) => `${round(b / 1024)} KB`;
const lines = [
  `Measured ${result.date} on ${result.machine} (\`node bench/page.mjs\`, release build).`,
  '',
  '| page | painted (median of ' + LOADS + ' loads) | redraw per input p50 / p95 (' + INPUTS + ' inputs) | target |',
  '|---|---|---|---|',
  ...pages.map((p) => `| ${p.page} | ${p.painted_ms.median} ms (max ${p.painted_ms.max})${p.page === 'accuracy' ? ', including the median simulation' : ''} | ${p.redraw_ms.p50} / ${p.redraw_ms.p95} ms | ${p.page === 'accuracy' ? 'p95 ≤ 16 ms' : 'painted ≤ 300 ms, p95 ≤ 16 ms'} |`),
  '',
  '| median simulation (accuracy page) | full Figure 8 grid, 60,000 runs: done and painted | longest of its slices | tasks over 50 ms once it runs (long-task API) | page start (before the first slice) | target |',
  '|---|---|---|---|---|---|',
  ...simulations.map((s) => `| ${s.population} | ${s.done_and_painted_ms} ms after navigation | ${s.longest_slice_ms} ms (${s.slices} slices) | ${s.long_tasks_ms.length ? s.long_tasks_ms.join(', ') + ' ms' : 'none'} | ${s.start_long_tasks_ms.length ? s.start_long_tasks_ms.join(', ') + ' ms' : 'no task > 50 ms'} | ≤ 5 s; no task > 50 ms while it runs |`),
  '',
  `Training page, 10,000 steps of the Poisson-subsampled Gaussian (σ = 1, q = 0.01, δ = 1e-5; ${training.inputs} slider inputs): per input, both composed PLDs (the tight band) take ${training.quick_pld_ms.p50} ms p50 / ${training.quick_pld_ms.p95} ms p95 (target ≤ 100 ms), all readouts with the calibrated σ ${training.quick_account_ms.p50} / ${training.quick_account_ms.p95} ms, the two figures that follow the slider (computed and redrawn) ${training.quick_redraw_ms.p50} / ${training.quick_redraw_ms.p95} ms; once the controls rest, the refined band takes ${training.fine_pld_ms.p50} / ${training.fine_pld_ms.p95} ms and all refined readouts ${training.fine_account_ms.p50} / ${training.fine_account_ms.p95} ms (shown as "refining" meanwhile), and the two calibrating figures ${training.deferred_figures_ms['noise-for-target'].p50} and ${training.deferred_figures_ms['gaussian-noise-ratio'].p50} ms p50 (shown as "computing"). First load, refined and painted: ${training.painted_ms} ms. How batches are formed (T = 100 steps per epoch, 100 epochs): per input the three samplers' bands take Poisson ${training.samplers_quick_ms.poisson.p50}, shuffle ${training.samplers_quick_ms.shuffle.p50} and balls in bins ${training.samplers_quick_ms['balls-in-bins'].p50} ms p50 (balls in bins ${training.samplers_quick_ms['balls-in-bins'].p95} ms p95, log-grid step 8e-3); refined at rest ${training.samplers_fine_ms.poisson.p50}, ${training.samplers_fine_ms.shuffle.p50} and ${training.samplers_fine_ms['balls-in-bins'].p50} ms p50 (log-grid step 4e-3); the attacker's numbers for a shuffled loop ${training.attack_fine_ms.shuffle.p50} ms and a balls-in-bins loop ${training.attack_fine_ms['balls-in-bins'].p50} ms p50 (refined); the deferred figures batching-comparison ${training.deferred_figures_ms['batching-comparison'].p50} ms and batching-noise ${training.deferred_figures_ms['batching-noise'].p50} ms p50. The refined balls-in-bins band takes about ${training.samplers_fine_ms['balls-in-bins'].p50} ms (both sides of one epoch's PLD, then 100 epochs composed), in the compute worker: the page answers meanwhile. Every number but the per-input redraws is computed in the compute worker since issue 35 (its measures sent to the page with each answer).`,
  '',
  `Attack-risk page, 10,000 steps of the Poisson-subsampled Gaussian (σ = 1, q = 0.01; ${risk.inputs} inputs per slider): on the FPR slider (the composed PLD reused), the whole trade-off curve is computed and redrawn in ${risk['fpr:curve'].p50} ms p50 / ${risk['fpr:curve'].p95} ms p95 (target ≤ 16 ms p95), and all quick readouts, the four inverses included, take ${risk['fpr:readouts'].p50} / ${risk['fpr:readouts'].p95} ms; on the σ slider (a new composition of both PLDs) the curve takes ${risk['sigma:curve'].p50} / ${risk['sigma:curve'].p95} ms and the readouts ${risk['sigma:readouts'].p50} / ${risk['sigma:readouts'].p95} ms. Once the controls rest, the refined readouts take ${risk.fine.p50} / ${risk.fine.p95} ms and the deferred figures tpr-vs-steps ${risk['tpr-vs-steps'].p50} ms and noise-for-risk ${risk['noise-for-risk'].p50} ms p50. First load, refined and painted: ${risk.painted_ms} ms.`,
  '',
  `Shuffling page at n = 10⁶ users (ε₀ = 1, δ = 1e-6; ${shuffling.inputs} slider inputs on ε₀ and n): per input, every bound, the exact clone bound and the published method's range included, takes ${shuffling['shuffle:table'].p50} ms p50 / ${shuffling['shuffle:table'].p95} ms p95 (target ≤ 50 ms for the clone bound alone), the inverse for the target ${shuffling['shuffle:inverse'].p50} / ${shuffling['shuffle:inverse'].p95} ms; R = 100 rounds, the refined band with the classic composition ${shuffling['shuffle:rounds']?.p50} / ${shuffling['shuffle:rounds']?.p95} ms (target ≤ 100 ms; while a control moves ${shuffling['shuffle:rounds-quick']?.p50} ms), its inverse ${shuffling['shuffle:inverse-rounds']?.p50} ms and the attacker ${shuffling['shuffle:attack']?.p50} ms (in the compute worker); once the controls rest the figures take ${figsLine(shuffling)} (computed, p50; shown as "computing" meanwhile). First load painted: ${shuffling.painted_ms} ms.`,
  '',
  `Shipped, gzipped: wasm ${kb(result.bytes_gzip.wasm)}, js ${kb(result.bytes_gzip.js)}, css ${kb(result.bytes_gzip.css)}; total ${kb(result.bytes_gzip.total)} (target ≤ 250 KB).`,
];
console.log(lines.join('\n'));
if (process.argv.includes('--readme')) {
  const path = resolve(ROOT, 'docs/performance.md');
  const readme = readFileSync(path, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < 0) throw new Error('docs/performance.md has no bench markers');
  writeFileSync(path, readme.slice(0, a + start.length) + '\n' + lines.join('\n') + '\n' + readme.slice(b));
}
