// End-to-end tests of the compute worker (src/worker.rs, public/worker.js): the heavy numbers are
// computed off the page's thread, so the page follows the reader's hand while they refine.
// Run by scripts/test.sh with the other end-to-end tests: node --test tests/e2e/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';
import { cli, pageEqualsCli } from './cli.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIST = resolve(ROOT, 'dist');
// The web's bar for a responsive page: no task on the main thread longer than this.
const LONG_TASK_MS = 50;

let server, origin, context;

before(async () => {
  server = await serve(DIST, { gzip: true });
  origin = `http://127.0.0.1:${server.address().port}`;
  context = await launch();
});

after(async () => {
  await context?.close();
  server?.close();
});

/** Open `path` with a Long Tasks observer installed before any script runs. */
async function open(path) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask' });
  });
  await page.goto(origin + path);
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
  return { page, problems };
}

/** Every figure painted (or refused with its reason, its canvas hidden: banded noise at a
 *  balls-in-bins loop), every figure's computation and the page's numbers current. */
async function quiet(page) {
  await page.waitForFunction(() => {
    const canvases = [...document.querySelectorAll('canvas')];
    const status = document.querySelector('[data-testid=accounting-status]');
    return canvases.length > 0
      && canvases.every((c) => c.dataset.painted === 'true' || c.closest('.plot-wrap.refused'))
      && document.querySelectorAll('.figure-pending').length === 0
      && !document.querySelector('[data-testid=worker-progress]')
      && !document.querySelector('[data-numbers=pending]')
      && (!status || status.dataset.state === 'final');
  }, null, { timeout: 180_000 });
}

/** Every readout the CLI computes has exactly its double on the page (at the page's own URL). */
async function readoutsEqualCli(page, id) {
  const { compared } = await pageEqualsCli(page);
  assert.ok(compared >= 3, `${id}: only ${compared} readouts compared`);
}

/** The URL the page writes once the controls rest (src/lib.rs debounces it). */
async function urlHas(page, key, value) {
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value], { timeout: 60_000 });
}

// Type a new value, then drag a slider for 2 s while the page refines: the main thread never
// holds a task longer than 50 ms, every step of the drag repaints, and the numbers at rest are the
// CLI's for the final settings.
const CASES = [
  ['risk', '/risk/', ['sigma', '1.7'], 'steps'],
  ['training', '/training/?batching=balls-in-bins', ['sigma', '1.3'], 'batch'],
  ['shuffling', '/shuffling/', ['eps0', '1.5'], 'users'],
];

for (const [id, path, [field, typed], slider] of CASES) {
  test(`${id}: typing and a 2 s drag while it refines hold no long task, every step repaints`, async () => {
    const { page, problems } = await open(path);
    await quiet(page);
    const from = await page.evaluate(() => { window.__long = []; return performance.now(); });
    await page.fill(`[data-testid=field-${field}]`, typed);
    // Typing may have scrolled the slider out of view (the training page's controls are long).
    await page.locator(`[data-testid=slider-${slider}]`).scrollIntoViewIfNeeded();
    const box = await page.locator(`[data-testid=slider-${slider}]`).boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    const steps = 20;
    let still = 0;
    let shown = await page.inputValue(`[data-testid=field-${slider}]`);
    for (let i = 1; i <= steps; i++) {
      await page.mouse.move(box.x + box.width * (0.3 + (0.3 * i) / steps), y);
      // Each step of the drag is on screen in the next frame: the slider's number field shows
      // the new value once a frame has run (waited for, not timed: the long-task check is what
      // says the frame came soon).
      const now = await page.evaluate((name) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() =>
        ok(document.querySelector(`[data-testid=field-${name}]`).value)))), slider);
      if (now === shown) still++;
      shown = now;
      // About 2 s for the whole drag, a step every 100 ms.
      await page.waitForTimeout(100);
    }
    await page.mouse.up();
    assert.equal(still, 0, `${still} of ${steps} drag steps left the slider's value unchanged on screen`);
    const moved = await page.inputValue(`[data-testid=field-${slider}]`);
    await urlHas(page, slider, moved);
    await urlHas(page, field, typed);
    await quiet(page);
    const long = await page.evaluate((t) => window.__long.filter((e) => e.start >= t).map((e) => Math.round(e.ms)), from);
    assert.ok(long.every((ms) => ms <= LONG_TASK_MS), `long tasks on the main thread: ${long.join(', ')} ms`);
    await readoutsEqualCli(page, id);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a stale result never lands: σ changed twice quickly ends with the second value', async () => {
  const { page, problems } = await open('/risk/');
  await quiet(page);
  await page.fill('[data-testid=field-sigma]', '0.9');
  await page.fill('[data-testid=field-sigma]', '2.3');
  await urlHas(page, 'sigma', '2.3');
  await quiet(page);
  await readoutsEqualCli(page, 'risk');
  // And the first value's numbers are not what stays: they differ from the second's.
  const first = cli(['page', 'risk', '--sigma', '0.9']).readouts.find((r) => r.value !== null && r.id.startsWith('tpr'));
  if (first) {
    const shown = Number(await page.getAttribute(`[data-testid="${first.id}"]`, 'data-value'));
    assert.notEqual(shown, first.value, `${first.id} still shows σ = 0.9's number`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a long computation says what it computes while the page stays usable', async () => {
  // Balls-in-bins batches over 200 epochs: the refined numbers and the batching figures take
  // seconds in the worker.
  const { page, problems } = await open('/training/?batching=balls-in-bins&epochs=200');
  await quiet(page);
  await page.fill('[data-testid=field-sigma]', '0.95');
  const line = page.locator('[data-testid=worker-progress]');
  await line.waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await line.innerText(), /^Computing in the background: .*(numbers|figure)/);
  // Meanwhile the page answers: another control moves and its quick numbers follow.
  await page.fill('[data-testid=field-delta]', '1e-6');
  await urlHas(page, 'delta', '1e-6');
  await quiet(page);
  await readoutsEqualCli(page, 'training');
  assert.deepEqual(problems, []);
  await page.close();
});

// The page's own module leaves the heavy computations to the compute module (issue 35:
// amp_site::heavy, compute/), which the worker fetches. Where no worker can be had, the page
// loads the compute module itself (window.__ampLocal, public/boot.js): the numbers and figures
// are the same, computed on the page's thread. Two ways to have no worker: a browser without
// module workers, and a worker that fails to start.
const NO_WORKER = [
  ['no Worker constructor', async (page) => page.addInitScript(() => {
    window.Worker = function Worker() { throw new Error('no workers here'); };
  })],
  // A worker that fails to start (its script refused, say): its error event comes after the
  // page has sent its first requests, which must then be answered on the page.
  ['a worker that fails to start', async (page) => page.addInitScript(() => {
    window.Worker = class Worker {
      constructor() { this.onerror = null; this.onmessage = null; setTimeout(() => this.onerror?.(new Event('error')), 50); }
      postMessage() {}
      terminate() {}
    };
  })],
];
for (const [how, setUp] of NO_WORKER) {
  test(`without a worker (${how}) the page runs the compute module itself, with the CLI's numbers`, async () => {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await setUp(page);
    // Settings other than the defaults: nothing carried in the document, all computed.
    await page.goto(`${origin}/risk/?sigma=1.7`);
    await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
    await quiet(page);
    await readoutsEqualCli(page, `risk (${how})`);
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(loaded.some((n) => /\/amp-compute_bg-[0-9a-f]{12}\.wasm$/.test(n)), `the compute module was not loaded: ${loaded.join(', ')}`);
    // Every figure drew a picture, none says the computation failed.
    const failed = await page.locator('text=computed in the background, which failed').count();
    assert.equal(failed, 0, 'a figure says its computation failed');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the page module leaves the heavy computations to the compute module', async () => {
  // The compute worker fetches the compute module; the page's own module has no `answer`.
  const { page, problems } = await open('/training/?sigma=1.2');
  await quiet(page);
  const exports = await page.evaluate(async () => {
    const wasm = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/amplification-explorer_bg-[0-9a-f]{12}\.wasm$/.test(n));
    const module = await WebAssembly.compileStreaming(fetch(wasm));
    return WebAssembly.Module.exports(module).map((e) => e.name);
  });
  assert.ok(exports.length > 3, `the page's module exports ${exports.join(', ')}`);
  assert.ok(!exports.includes('answer'), 'the page module exports answer: the heavy computations are in it');
  await readoutsEqualCli(page, 'training');
  assert.deepEqual(problems, []);
  await page.close();
});
