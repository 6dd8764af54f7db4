// The set-up and helpers of the compute worker's end-to-end tests (worker.test.mjs, which times
// the page's main thread and runs alone, and compute.test.mjs, which does not): the release build
// served with its precompressed copies, one browser, pages opened with a Long Tasks observer.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';
import { pageEqualsCli } from './cli.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIST = resolve(ROOT, 'dist');
// The web's bar for a responsive page: no task on the main thread longer than this.
export const LONG_TASK_MS = 50;

let server, origin, context;

/** The server and the browser, for the tests of the calling file. */
export function setUp() {
  before(async () => {
    server = await serve(DIST, { gzip: true });
    origin = `http://127.0.0.1:${server.address().port}`;
    context = await launch();
  });

  after(async () => {
    await context?.close();
    server?.close();
  });
}

/** The browser context and the served origin (after set-up). */
export const live = () => ({ context, origin });

/** Open `path` with a Long Tasks observer installed before any script runs. */
export async function open(path) {
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
export async function quiet(page) {
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
export async function readoutsEqualCli(page, id) {
  const { compared } = await pageEqualsCli(page);
  assert.ok(compared >= 3, `${id}: only ${compared} readouts compared`);
}

/** The URL the page writes once the controls rest (src/lib.rs debounces it). */
export async function urlHas(page, key, value) {
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value], { timeout: 60_000 });
}

