// Settle benchmark: how long a page takes, in the browser, from a new value typed into a control
// until every number on it is current (the quick ones and, on a page that refines, the refined
// ones: `data-numbers` no longer "pending"), for the run shapes of issues 36 and 37. Reports
// figures, never fails on noise. Needs a release build in dist/ (`trunk build --release`).
// Usage:
//   node bench/settle.mjs [--repeat 3]
// Each case opens the page at its settings, waits for its numbers, then types a new value into
// one field `repeat` times (alternating two values) and reports the median and the largest time to
// settle, with the numbers read at the end (to set beside the CLI's and the libraries').
import { resolve } from 'node:path';
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REPEAT = arg('repeat', 3);

// [what, page and settings, field typed into, two values, readouts reported]
const CASES = [
  ['records per user R = 4 (dp_accounting 8.8992)', 'training/?dataset=100000&batch=1000&sigma=1&length=steps&steps=1000&delta=1e-5&records-per-user=4', 'sigma', ['1.001', '1'], ['tight-epsilon', 'tight-epsilon-lower', 'group-lemma-epsilon']],
  ['capped batches M = 300 (dp_accounting 2.5375)', 'training/?dataset=60000&batch=256&sigma=1&length=steps&steps=1000&delta=1e-5&max-batch=300', 'sigma', ['1.001', '1'], ['tight-epsilon', 'tight-epsilon-lower']],
  ['balls in bins, one epoch, σ = 1, T = 1000 (PLD_accounting [0.13718, 0.14144])', 'training/?dataset=100000&batch=100&sigma=1&epochs=1&delta=1e-5&batching=balls-in-bins', 'sigma', ['1.001', '1'], ['epsilon-balls-in-bins', 'epsilon-balls-in-bins-lower']],
  ['random allocation k = 3 of 703 steps (σ = 1)', 'training/?dataset=60000&batch=256&sigma=1&epochs=3&delta=1e-5&batching=allocation', 'sigma', ['1.001', '1'], ['epsilon-allocation', 'epsilon-allocation-lower']],
  ['gradient accumulation 8 × 64 (σ = 1, 10 epochs)', 'training/?dataset=60000&batch=64&accumulation-steps=8&sigma=1&epochs=10&delta=1e-5', 'sigma', ['1.001', '1'], ['tight-epsilon', 'micro-batch-epsilon']],
  ['banded noise b = 8 (jax_privacy 2.288537)', 'training/?dataset=60000&batch=256&sigma=1&length=steps&steps=703&delta=1e-5&bands=8', 'sigma', ['1.001', '1'], ['tight-epsilon', 'tight-epsilon-lower']],
  ['numeric Gaussian-DP μ (σ = 1, q = 0.01, 1000 steps)', 'risk/?mech=gaussian&sigma=1&q=0.01&steps=1000&delta=1e-5', 'sigma', ['1.001', '1'], ['gdp-mu', 'gdp-mu-clt']],
  ['shuffle, R = 100 rounds at n = 10⁶, ε₀ = 1', 'shuffling/?eps0=1&users=1000000&delta=1e-6&rounds=100', 'eps0', ['1.001', '1'], ['rounds-epsilon', 'rounds-epsilon-lower', 'rounds-naive-epsilon']],
  ['shuffle, R = 100 rounds at n = 10⁵, ε₀ = 4 (dp_accounting [2.01079, 2.01178])', 'shuffling/?eps0=4&users=100000&delta=1e-6&rounds=100', 'eps0', ['4.001', '4'], ['rounds-epsilon', 'rounds-epsilon-lower', 'rounds-tpr']],
];

const current = (page) => page.waitForFunction(
  () => document.documentElement.dataset.app === 'live' && !document.querySelector('[data-numbers=pending]'),
  null, { timeout: 300_000 });

const server = await serve(DIST);
const origin = `http://127.0.0.1:${server.address().port}`;
const context = await launch();
const out = [];
for (const [what, url, field, values, ids] of CASES) {
  const page = await context.newPage();
  await page.goto(`${origin}/${url}`);
  await current(page);
  const times = [];
  for (let i = 0; i < REPEAT * 2; i++) {
    const t0 = await page.evaluate(() => performance.now());
    await page.fill(`[data-testid=field-${field}]`, values[i % 2]);
    // The numbers go pending as soon as the new value is read; then wait until they are current.
    await page.waitForFunction(() => document.querySelector('[data-numbers=pending]') !== null, null, { timeout: 10_000 }).catch(() => {});
    await current(page);
    times.push((await page.evaluate(() => performance.now())) - t0);
  }
  const shown = await page.evaluate((list) => Object.fromEntries(list.map((id) => [id, document.querySelector(`[data-testid="${id}"]`)?.dataset.value ?? null])), ids);
  times.sort((a, b) => a - b);
  const row = { what, url, settle_ms_p50: Math.round(times[times.length >> 1]), settle_ms_max: Math.round(times[times.length - 1]), shown };
  console.log(JSON.stringify(row));
  out.push(row);
  await page.close();
}
await context.close();
server.close();
