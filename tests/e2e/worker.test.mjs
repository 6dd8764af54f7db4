// End-to-end tests of the compute worker (src/worker.rs, public/worker.js): the heavy numbers are
// computed off the page's thread, so the page follows the reader's hand while they refine. These
// time the page's main thread, so scripts/test.sh runs them alone, last; the worker's other tests
// are in compute.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONG_TASK_MS, open, quiet, readoutsEqualCli, setUp, urlHas } from './worker-page.mjs';

setUp();

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
