// What the live app's end-to-end tests share (app.test.mjs, audit.test.mjs): the release build in
// dist/, served on 127.0.0.1 for the importing file, driven by the system Chromium; `open` fails a
// test on any console error, page error, failed request, or request leaving 127.0.0.1.
// Screenshots go to test-artifacts/ (git-ignored).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from './server.mjs';
import { launch, droppedByRedirect } from './browser.mjs';
import { pageEqualsCli } from './cli.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DIST = resolve(ROOT, 'dist');
export const ARTIFACTS = resolve(ROOT, 'test-artifacts');
export const AMPLIFY = process.env.AMPLIFY_BIN || resolve(ROOT, 'target', 'tool', 'amplify');
mkdirSync(ARTIFACTS, { recursive: true });

let server, origin, context;

before(async () => {
  server = await serve(DIST);
  origin = `http://127.0.0.1:${server.address().port}`;
  context = await launch();
});

after(async () => {
  await context?.close();
  server?.close();
});

/** Open a page and record every problem: console errors, page errors, failed or foreign requests. */
export async function open(path, opts = {}) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Every address the page has shown: a later navigation to an old `?embed=` link drops its
  // preloads just as the first one does.
  const visited = [path];
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) visited.push(f.url()); });
  // A request the page had in flight when the test itself navigated away (a `page.goto` while the
  // compute worker was still fetching its module, say) is cut short by the browser, not failed.
  const started = new Map();
  let navigations = 0;
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });
  page.on('request', (r) => started.set(r, navigations));
  page.on('requestfailed', (r) => {
    if (visited.some((u) => droppedByRedirect(u, r))) return;
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && started.get(r) < navigations) return;
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith((opts.origin || origin) + '/') && !u.startsWith('data:')) problems.push(`request left 127.0.0.1: ${u}`);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto((opts.origin || origin) + path);
  // The pre-rendered page is there at once; the live app replaces it when the wasm has started.
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live');
  return { page, problems };
}

export async function painted(page) {
  await page.waitForFunction(() => {
    const c = [...document.querySelectorAll('canvas')];
    return c.length > 0 && c.every((x) => x.dataset.painted === 'true');
  });
}

/** Wait until the layout has stopped moving: the figures painted and every canvas, legend and
 * caption box the same over five animation frames in a row (after a resize the app redraws at
 * the new size; no fixed wait, which a slow machine can outlast). */
export async function settled(page) {
  await painted(page);
  await page.waitForFunction(() => {
    const boxes = [...document.querySelectorAll('canvas, .figure-legend, .figure-summary')]
      .map((e) => { const b = e.getBoundingClientRect(); return `${b.x},${b.y},${b.width},${b.height}`; })
      .join(';') + `|${document.documentElement.scrollHeight}`;
    const w = window;
    if (w.__lastBoxes === boxes) w.__sameFrames = (w.__sameFrames || 0) + 1;
    else { w.__lastBoxes = boxes; w.__sameFrames = 0; }
    return w.__sameFrames >= 5;
  }, null, { polling: 'raf', timeout: 60_000 });
}

export const value = (page, testid) => page.getAttribute(`[data-testid="${testid}"]`, 'data-value');

/** The readout's full-precision value is exactly the CLI's double (same math, same libm). */
export async function sameAsCli(page, testid, expected) {
  const v = await value(page, testid);
  assert.ok(v !== null && v !== '', `${testid} has no value`);
  assert.equal(Number(v), expected, `${testid}: app ${v}, CLI ${expected}`);
}


/** Every number on screen equals `amplify page <id> --json` at the settings the page's URL holds
 * (once a page that refines shows its refined numbers): each readout the CLI gives a number has
 * exactly that double in `data-value`, each without one shows none. The one check of "the page's
 * numbers are the CLI's", for every page. */
export async function readoutsEqualCli(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=accounting-status]');
    return document.documentElement.dataset.app === 'live' && (!s || s.dataset.state === 'final');
  }, null, { timeout: 120_000 });
  const { want, compared } = await pageEqualsCli(page);
  const id = want.page;
  assert.ok(compared >= 1, `${id}: no readout compared`);
  return want;
}
