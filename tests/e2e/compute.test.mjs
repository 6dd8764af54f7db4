// End-to-end tests of the compute worker that do not time the page's thread (those are in
// worker.test.mjs): a stale answer never lands, a long computation says what it computes, the page
// without a worker computes itself, and the page's module leaves the heavy code to the worker's.
// Run by scripts/test.sh beside the other end-to-end tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './cli.mjs';
import { live, open, quiet, readoutsEqualCli, setUp, urlHas } from './worker-page.mjs';

setUp();

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
    const page = await live().context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await setUp(page);
    // Settings other than the defaults: nothing carried in the document, all computed.
    await page.goto(`${live().origin}/risk/?sigma=1.7`);
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
