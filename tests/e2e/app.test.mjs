// End-to-end tests: the release build in dist/, served on 127.0.0.1, driven by the system Chromium
// (the shared set-up and helpers in live.mjs; the longest tests in audit.test.mjs).
// Run by scripts/test.sh after `trunk build --release` (whose post-build step builds the CLI, target/tool/amplify):
//   node --test tests/e2e/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from './server.mjs';
import { cli, pageEqualsCli } from './cli.mjs';
import { ARTIFACTS, DIST, open, painted, readoutsEqualCli, sameAsCli, settled, value } from './live.mjs';

/** Every page's numbers at settings other than the defaults (and a run of phases, randomized
 * response, sampling without replacement), against `amplify page <id> --json` at the same
 * settings: every readout the CLI gives a number has exactly that double in the page's
 * `data-value`, and every readout without one shows none. */
const PAGE_SETTINGS = [
  ['home', 'eps=2&p=0.05'],
  ['subsampling', 'scheme=without-replacement&eps=0.5&delta=1e-7&m=300&n=50000'],
  ['limits', 'eps=0.3&p=0.002&c=3&dataset=120000&batch=512&epochs=5&total-eps=2&n=5000'],
  ['accuracy', 'eps=0.7&rate=0.05&target-q=0.4&N=5001'],
  ['renyi', 'mech=laplace&scale=0.8&scheme=without-replacement&q=0.01&n=20000&alpha=6&steps=300&delta=1e-6&target-eps=2'],
  ['training', 'dataset=60000&batch=600&sigma=1&length=steps&steps=1000&delta=1e-5&phases=2&sigma-2=0.8&batch-2=1200&length-2=steps&steps-2=500&batching-2=balls-in-bins'],
  ['risk', 'mech=kary-randomized-response&eps=0.4&k=3&steps=40&fpr=0.01&prior=0.3&delta=1e-6'],
  ['shuffling', 'eps0=2&users=50000&delta=1e-7&randomizer=k-rr&k=3&target-eps=0.5&p=0.02&eps=1.5'],
  ['iteration', 'iterations=500&step-batch=3&sigma=2&step-size=0.5&smoothness=2&delta=1e-6'],
  // User-level: each person contributes several records (issue 36).
  ['training', 'batch=600&sigma=1&length=steps&steps=400&delta=1e-5&records-per-user=4'],
  ['risk', 'q=0.01&steps=300&records-per-user=3'],
  // Capped Poisson batches and gradient accumulation (issue 36).
  ['training', 'batch=64&accumulation-steps=4&sigma=1&length=steps&steps=400&delta=1e-5&batching=truncated-poisson&max-batch=280'],
];

test('every page: its readouts equal amplify page at the same settings', async () => {
  for (const [id, query] of PAGE_SETTINGS) {
    const path = id === 'home' ? '/' : `/${id}/`;
    const { page, problems } = await open(`${path}?${query}`);
    const got = await readoutsEqualCli(page);
    assert.equal(got.page, id);
    assert.deepEqual(problems, [], id);
    await page.close();
  }
});

test('home page loads, links only to pages that exist, shows a live number', async () => {
  const { page, problems } = await open('/');
  const links = await page.$$eval('nav a', (as) => as.map((a) => new URL(a.href).pathname));
  // Exactly the pages the build pre-rendered (a document per page in dist/, embeds apart), home first.
  const built = readdirSync(DIST, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'embed' && existsSync(join(DIST, d.name, 'index.html')))
    .map((d) => `/${d.name}/`);
  assert.equal(links[0], '/');
  assert.deepEqual([...links.slice(1)].sort(), built.sort());
  assert.ok(links.length >= 9, `${links.length} pages`);
  await readoutsEqualCli(page);
  await page.screenshot({ path: `${ARTIFACTS}/home.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('subsampling page: readouts equal the CLI, keyboard moves a slider, URL follows', async () => {
  const { page, problems } = await open('/?page=subsampling');
  await painted(page);
  await readoutsEqualCli(page);
  const base = { epsilon: Number(await value(page, 'epsilon-prime')) };
  assert.match(await page.textContent('[data-testid=base-epsilon]'), /^5\.1523$/);

  const historyBefore = await page.evaluate(() => history.length);
  const pixels = () => page.$$eval('canvas', (cs) => cs.map((c) => c.toDataURL()));
  const summaries = () => page.$$eval('.figure-summary', (ps) => ps.map((p) => p.textContent));
  const [pixelsBefore, summariesBefore] = [await pixels(), await summaries()];
  // Keyboard: focus the ε slider and press → five times.
  await page.focus('[data-testid=slider-eps]');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => { const v = new URL(location.href).searchParams.get('eps'); return v !== null && v !== '1'; });
  const eps = new URL(page.url()).searchParams.get('eps');
  assert.notEqual(eps, '1');
  assert.equal(await page.inputValue('[data-testid=field-eps]'), eps);
  await readoutsEqualCli(page);
  assert.notEqual(Number(await value(page, 'epsilon-prime')), base.epsilon);
  // Every figure redrew with the new ε: new pixels, and text alternatives that name it.
  await painted(page);
  const [pixelsAfter, summariesAfter] = [await pixels(), await summaries()];
  for (let i = 0; i < pixelsBefore.length; i++) {
    assert.notEqual(pixelsAfter[i], pixelsBefore[i], `figure ${i} did not redraw`);
    assert.notEqual(summariesAfter[i], summariesBefore[i], `figure ${i} text did not change`);
  }
  assert.match(summariesAfter[0], new RegExp(`your ε = ${eps.replace('.', '\\.')}`));
  // Moving a control replaces the history entry rather than adding one per step.
  assert.equal(await page.evaluate(() => history.length), historyBefore);

  // Fixed-size scheme: the relation badge changes, readouts still equal the CLI.
  await page.selectOption('select[name=scheme]', 'without-replacement');
  await page.fill('[data-testid=field-m]', '256');
  await page.fill('[data-testid=field-n]', '60000');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('m') === '256');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('n') === '60000');
  await readoutsEqualCli(page);
  assert.equal(await page.textContent('[data-testid=epsilon-prime] + .badge'), 'replace one');
  await painted(page);
  await page.screenshot({ path: `${ARTIFACTS}/subsampling.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('bad input is reported next to its control and the last valid state stays', async () => {
  const { page, problems } = await open('/?page=subsampling&eps=0.5');
  await painted(page);
  const before = await value(page, 'epsilon-prime');
  for (const bad of ['abc', '-1', '1e999', 'NaN', '']) {
    await page.fill('[data-testid=field-eps]', bad);
    await page.waitForFunction(() => document.querySelector('[data-testid=error-eps]').textContent.length > 0);
    assert.equal(await value(page, 'epsilon-prime'), before, `after typing ${JSON.stringify(bad)}`);
  }
  assert.equal(await page.getAttribute('[data-testid=field-eps]', 'aria-invalid'), 'true');
  await page.fill('[data-testid=field-eps]', '0.25');
  await page.waitForFunction(() => document.querySelector('[data-testid=error-eps]').textContent === '');
  assert.notEqual(await value(page, 'epsilon-prime'), before);
  assert.deepEqual(problems, []);
  await page.close();
});

test('back and forward move between pages', async () => {
  const { page, problems } = await open('/');
  await page.click('[data-testid=nav-subsampling]');
  await page.waitForSelector('[data-testid=epsilon-prime]');
  assert.equal(new URL(page.url()).pathname, '/subsampling/');
  await page.goBack();
  await page.waitForSelector('[data-testid=home-epsilon-prime]');
  await page.goForward();
  await page.waitForSelector('[data-testid=epsilon-prime]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the document title names the page or the embedded figure; modified clicks are left to the browser', async () => {
  const { page, problems } = await open('/');
  assert.equal(await page.title(), 'Amplification Explorer');
  await page.click('[data-testid=nav-renyi]');
  await page.waitForSelector('[data-testid=rdp-at-order]');
  assert.equal(await page.title(), 'Rényi DP: subsampling and composition · Amplification Explorer');
  // Ctrl-click (and Shift-click) on a navigation link opens a new tab or window: the page in
  // this one does not change.
  const pagesBefore = page.context().pages().length;
  // The browser opens each in a new tab or window: wait for both to exist, then check that this
  // page stayed where it was.
  const opened = new Promise((resolve) => {
    let n = 0;
    page.context().on('page', () => { if (++n === 2) resolve(); });
  });
  await page.click('[data-testid=nav-limits]', { modifiers: ['Control'] });
  await page.click('[data-testid=nav-shuffling]', { modifiers: ['Shift'] });
  await Promise.race([opened, new Promise((_, fail) => setTimeout(() => fail(new Error('the modified clicks opened no new tabs in 30 s')), 30_000))]);
  assert.equal(new URL(page.url()).pathname, '/renyi/');
  assert.equal(await page.locator('[data-testid=rdp-at-order]').count(), 1);
  for (const p of page.context().pages().slice(pagesBefore)) await p.close();
  // A link inside the prose (home page) navigates in place on a plain click.
  await page.click('[data-testid=nav-home]');
  await page.click('a[data-page=limits]');
  await page.waitForSelector('[data-testid=epsilon-p]');
  assert.equal(new URL(page.url()).pathname, '/limits/');
  assert.equal(await page.title(), 'When subsampling stops being free · Amplification Explorer');
  // The prose (content.json) arrives a moment after start; leaving before it has would abort its
  // request, which the problem list counts: wait for it first.
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.documentElement.dataset.contentState),
    null, { timeout: 60_000 });
  await page.goto(page.url().replace(/\?.*$/, '?embed=rdp-base'));
  await page.waitForSelector('h1');
  assert.equal(await page.title(), 'Rényi DP curves of the base mechanisms · Amplification Explorer');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link followed before the compute worker has started: the worker still starts from the site root', async () => {
  // Issue 48: the worker's address is written relative to the document; resolved against the
  // current address after an in-app navigation, it pointed under /renyi/ and got a 404. The home
  // page starts its worker a moment after it is live; the click comes before that.
  const { page, problems } = await open('/');
  const scripts = [];
  page.on('request', (r) => { if (/\/worker-[0-9a-f]+\.js$/.test(r.url())) scripts.push(new URL(r.url()).pathname); });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.computeState ?? null), null,
    'the worker had started before the click');
  await page.click('[data-testid=nav-renyi]');
  await page.waitForSelector('[data-testid=rdp-at-order]');
  assert.equal(new URL(page.url()).pathname, '/renyi/');
  await page.waitForFunction(() => document.documentElement.dataset.computeState === 'ready', null, { timeout: 60_000 });
  assert.equal(scripts.length, 1, `worker scripts asked for: ${scripts.join(', ')}`);
  assert.match(scripts[0], /^\/worker-[0-9a-f]+\.js$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('an embed shows one figure with its controls', async () => {
  const { page, problems } = await open('/?embed=sample-budget&scheme=poisson&eps=1&p=0.01');
  await painted(page);
  assert.equal(await page.locator('canvas').count(), 1);
  assert.equal(await page.locator('nav').count(), 0);
  assert.match(await page.textContent('.figure-summary'), /5\.1523/);
  await page.screenshot({ path: `${ARTIFACTS}/embed-sample-budget.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test('an embed fills its frame from 320 to 1200 px wide: no band between the picture and its caption', async () => {
  for (const id of ['sample-budget', 'neighbour-densities']) {
    for (const [width, height] of [[320, 560], [600, 450], [1200, 800], [1200, 1100]]) {
      const { page, problems } = await open(`/?embed=${id}`);
      await page.setViewportSize({ width, height });
      await settled(page);
      const m = await page.evaluate(() => {
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        // On a phone the legend is listed under the picture, before the caption.
        const legends = [...document.querySelectorAll('.figure-legend')].map((l) => l.getBoundingClientRect()).filter((b) => b.height > 0);
        return { canvas: box('canvas'), wrap: box('.plot-wrap'), caption: box('.figure-summary'),
          above: Math.max(box('canvas').bottom, ...legends.map((b) => b.bottom)), doc: document.documentElement.scrollHeight };
      });
      const where = `${id} at ${width}×${height}`;
      assert.ok(m.canvas.width >= width - 24, `${where}: canvas ${m.canvas.width} px wide`);
      assert.ok(m.wrap.bottom - m.canvas.bottom <= 1, `${where}: ${m.wrap.bottom - m.canvas.bottom} px empty under the picture`);
      assert.ok(m.caption.top - m.above <= 12, `${where}: caption ${m.caption.top - m.above} px below the picture or its legend`);
      // Where the frame is tall enough, the whole embed fits it (nothing to scroll).
      if (height >= 800) assert.ok(m.doc <= height + 1, `${where}: the embed is ${m.doc} px tall`);
      assert.deepEqual(problems, [], where);
      await page.close();
    }
  }
});

test('hostile links show a notice, never a blank page or an error', async () => {
  const long = '9'.repeat(10_000);
  const urls = [
    '/?page=subsampling&eps=NaN', '/?page=subsampling&eps=-1', '/?page=subsampling&eps=1e999',
    '/?page=subsampling&eps=', '/?page=subsampling&eps=text', '/?page=subsampling&eps=1&eps=2',
    '/?page=subsampling&unknown=1', `/?page=subsampling&eps=${long}`, '/?page=nowhere',
    '/?embed=nothing', '/?page=subsampling&scheme=without-replacement&m=5&n=2',
    '/?page=subsampling&p=%3Cscript%3Ealert(1)%3C/script%3E', '/?%%%&&&===',
  ];
  for (const u of urls) {
    const { page, problems } = await open(u);
    await page.waitForSelector('h1, canvas');
    const text = await page.textContent('body');
    assert.ok(text.length > 100, `blank page for ${u}`);
    assert.deepEqual(problems, [], u);
    await page.close();
  }
});

test('dist works from a subpath of a static host', async () => {
  const sub = await serve(DIST, { base: '/some/sub/path/' });
  const subOrigin = `http://127.0.0.1:${sub.address().port}`;
  const { page, problems } = await open('/some/sub/path/?page=subsampling', { origin: subOrigin });
  await painted(page);
  assert.deepEqual(problems, []);
  await page.close();
  sub.close();
});

test('limits page: every figure paints, readouts and the sentence equal the CLI', async () => {
  const { page, problems } = await open('/?page=limits');
  await painted(page);
  assert.equal(await page.locator('canvas').count(), 6);
  await readoutsEqualCli(page);
  const g = cli(['regime', '--dataset-size', '60000', '--batch-size', '256', '--epochs', '3', '--total-eps', '3']);
  assert.equal(await page.textContent('[data-testid=regime-sentence]'), g.sentence);
  assert.match(g.sentence, /7\.87× the noise .* at most 8\.00×/);

  // Keyboard on the batch slider: the regime readouts and the map follow.
  const map = () => page.$eval('[data-testid=canvas-regime-map]', (c) => c.toDataURL());
  const before = await map();
  await page.focus('[data-testid=slider-batch]');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => { const v = new URL(location.href).searchParams.get('batch'); return v !== null && v !== '256'; });
  await readoutsEqualCli(page);
  await painted(page);
  assert.notEqual(await map(), before, 'the regime map did not redraw');
  await page.screenshot({ path: `${ARTIFACTS}/limits.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('accuracy page: readouts equal the CLI, the simulation runs in slices and matches the CLI for the same seed', async () => {
  const { page, problems } = await open('/?page=accuracy');
  await readoutsEqualCli(page);

  // The simulation finishes, every figure paints, and the app's numbers are the CLI's.
  await page.waitForSelector('[data-testid=sim-done]', { timeout: 30_000 });
  await painted(page);
  const sim = cli(['median-sim', '--population', 'lognormal', '--eps', '0.1', '--n', '101', '--runs', '1000', '--seed', '123']);
  await sameAsCli(page, 'repro-0.1-0.01', sim.sensitivity_ratio_median);
  // Figures 1 (right) and 2: the global-sensitivity medians' spread is stated under the picture.
  assert.match(await page.textContent('[data-figure=private-estimates] .figure-summary'), /range from \S+ to \S+ at ε = 0\.1/);
  assert.match(await page.textContent('[data-population=lognormal]'), /gain/);
  // It ran in many slices, yielding to the browser in between (how long each took is the
  // benchmark's business, bench/page.mjs, not a test's).
  const slices = await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name === 'sim-slice').length);
  assert.ok(slices > 10, `the simulation ran in ${slices} slices`);

  // The naive eq. 8 appears on request and exceeds 1 somewhere.
  await page.selectOption('select[name=naive]', 'show');
  await page.waitForFunction(() => document.querySelector('[data-figure=mean-noise-ratio] .figure-summary').textContent.includes('grey dots'));
  assert.match(await page.textContent('[data-figure=mean-noise-ratio] .figure-summary'), /exceeds 1 at [1-9]\d* of/);

  // Another population: a new run that can be cancelled and restarted; then Table 1 has both rows.
  await page.selectOption('select[name=population]', 'bimodal');
  await page.waitForSelector('[data-testid=sim-cancel]');
  await page.click('[data-testid=sim-cancel]');
  await page.waitForSelector('[data-testid=sim-run]');
  await page.click('[data-testid=sim-run]');
  await page.waitForSelector('[data-testid=sim-done]', { timeout: 30_000 });
  assert.match(await page.textContent('[data-population=bimodal]'), /gain/);
  assert.match(await page.textContent('[data-population=lognormal]'), /gain/);
  await page.screenshot({ path: `${ARTIFACTS}/accuracy.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('renyi page: curves and composition equal the CLI, a slider moves them, bounds are ordered', async () => {
  const { page, problems } = await open('/?page=renyi&mech=gaussian&sigma=5&scheme=poisson&q=0.001&alpha=8&steps=1000&delta=1e-6');
  await painted(page);
  assert.equal(await page.locator('canvas').count(), 5);
  await readoutsEqualCli(page);
  const at = (id) => value(page, id).then(Number);
  assert.ok(await at('rdp-upper-at-order') >= await at('rdp-at-order') && await at('rdp-at-order') >= await at('rdp-lower-at-order') * (1 - 1e-12));
  const acc = { epsilon: await at('composed-epsilon') };

  // Keyboard on the q slider: the URL, the readouts and the composition figure follow.
  const fig = () => page.$eval('[data-testid=canvas-rdp-composition]', (c) => c.toDataURL());
  const before = await fig();
  await page.focus('[data-testid=slider-q]');
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  // The URL is written once the controls have been still for a moment: on a slow machine a press
  // can come after a write, so wait until the URL holds the value the control shows.
  await page.waitForFunction(() => {
    const v = new URL(location.href).searchParams.get('q');
    const field = document.querySelector('[data-testid=field-q]');
    return v !== null && v !== '0.001' && field && Number(field.value) === Number(v);
  }, null, { timeout: 30_000 });
  await readoutsEqualCli(page);
  assert.ok(await at('composed-epsilon') > acc.epsilon);
  // The composition figure is computed in the compute worker: wait for its new picture.
  await page.waitForFunction((b) => document.querySelector('[data-testid=canvas-rdp-composition]').toDataURL() !== b,
    before, { timeout: 30_000 }).catch(() => assert.fail('the composition figure did not redraw'));

  // Laplace under Poisson sampling: exact (both directions of the divergence), equal to the CLI.
  await page.selectOption('#ctl-mech', 'laplace');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('mech') === 'laplace');
  await painted(page);
  assert.match(await page.textContent('[data-testid=curve-kind]'), /exact/);
  await readoutsEqualCli(page);

  // Laplace without replacement: no exact curve, the page says so, the numbers equal the CLI.
  await page.selectOption('#ctl-scheme', 'without-replacement');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scheme') === 'without-replacement');
  await painted(page);
  assert.match(await page.textContent('[data-testid=curve-kind]'), /upper bound/);
  const badge = await page.textContent('[data-testid=composed-epsilon] + .badge');
  assert.equal(badge, 'replace one');
  await readoutsEqualCli(page);
  await page.screenshot({ path: `${ARTIFACTS}/renyi.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('training page: the tight band and RDP equal the CLI, numbers refine at rest, calibration, warnings', async () => {
  // Opacus's test case: σ = 1.5, q = 2400/60000 = 0.04, 2250 steps, δ = 1e-5 (its PRV accountant: about 6.777).
  const { page, problems } = await open('/?page=training&dataset=60000&batch=2400&mech=gaussian&sigma=1.5&length=steps&steps=2250&delta=1e-5&batching=poisson&target-eps=6.7688');
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  await painted(page);
  // Five figures of the run and its noise, two of how batches are formed, one of capped batches,
  // one of banded noise, one of tuning.
  assert.equal(await page.locator('canvas').count(), 10);
  // No number of a run shape not in use: one record per person, no accumulation, no cap, no search.
  for (const id of ['group-lemma-epsilon', 'micro-batch-epsilon', 'cap-cut-probability', 'capped-rate', 'tuned-epsilon']) {
    assert.equal(await page.locator(`[data-testid=${id}]`).count(), 0, `${id} shown`);
  }
  const step = await page.getAttribute('[data-testid=accounting-status]', 'data-step');
  const base = ['--mechanism', 'gaussian', '--sigma', '1.5', '--q', '0.04', '--steps', '2250', '--delta', '1e-5'];
  const pld = cli(['account', '--accountant', 'pld', ...base, '--grid', step]);
  await sameAsCli(page, 'tight-epsilon', pld.epsilon);
  await sameAsCli(page, 'tight-epsilon-lower', pld.epsilon_lower);
  const rdp = cli(['account', '--accountant', 'rdp', ...base]);
  await sameAsCli(page, 'rdp-epsilon', rdp.epsilon);
  await sameAsCli(page, 'rdp-order', rdp.order);
  const [lo, hi, r] = [await value(page, 'tight-epsilon-lower'), await value(page, 'tight-epsilon'), await value(page, 'rdp-epsilon')].map(Number);
  assert.ok(lo <= hi && hi < r, `band [${lo}, ${hi}], RDP ${r}`);
  assert.ok(Math.abs(hi - 6.7688) < 0.002 && Math.abs(6.7774 - hi) < 0.02, `tight ε ${hi} against Opacus's 6.777`);
  // The target is the run's own ε: the calibrated σ is the run's σ (to the calibration's accuracy).
  const sigma = Number(await value(page, 'calibrated-sigma'));
  assert.ok(Math.abs(sigma - 1.5) < 0.01, `calibrated σ ${sigma}`);
  assert.match(await page.inputValue('[data-testid=privacy-statement]'), /ε = 6\.769 and δ = 1e-5/);
  assert.equal(await page.locator('[data-testid=training-warning]').count(), 0);
  // `amplify train` runs the page's own readouts: the same refined numbers and statement.
  const train = cli(['train', '--dataset', '60000', '--batch', '2400', '--mechanism', 'gaussian', '--sigma', '1.5', '--steps', '2250', '--delta', '1e-5', '--batching', 'poisson', '--target-eps', '6.7688']);
  await readoutsEqualCli(page);
  assert.equal(train.grid_step, Number(step));
  assert.equal(train.statement, await page.inputValue('[data-testid=privacy-statement]'));

  // A slider: the quick numbers follow, then the refined ones land; more noise, less ε.
  await page.focus('[data-testid=slider-sigma]');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => { const v = new URL(location.href).searchParams.get('sigma'); return v !== null && v !== '1.5'; });
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  const sigma2 = new URL(page.url()).searchParams.get('sigma');
  const step2 = await page.getAttribute('[data-testid=accounting-status]', 'data-step');
  const pld2 = cli(['account', '--accountant', 'pld', '--mechanism', 'gaussian', '--sigma', sigma2, '--q', '0.04', '--steps', '2250', '--delta', '1e-5', '--grid', step2]);
  await sameAsCli(page, 'tight-epsilon', pld2.epsilon);
  assert.ok(pld2.epsilon < pld.epsilon);
  await painted(page);

  // Shuffled batches: the page says the tight number is Poisson's; the loop's own bands (shuffle
  // and balls in bins, zero-out) equal the CLI's once refined, and the statement quotes the shuffle band.
  await page.selectOption('#ctl-batching', 'shuffle');
  await page.waitForSelector('[data-testid=training-warning]');
  assert.match(await page.textContent('[data-testid=training-warning]'), /not for your loop/);
  const run = ['--sigma', sigma2, '--dataset-size', '60000', '--batch-size', '2400', '--steps', '2250', '--delta', '1e-5'];
  const sh = cli(['account', '--batching', 'shuffle', ...run]);
  const bb = cli(['account', '--batching', 'balls-in-bins', ...run]);
  const settled = (id, want) => page.waitForFunction(([id, want]) =>
    Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-value')) === want, [id, want], { timeout: 30000 });
  await settled('epsilon-shuffle', sh.epsilon);
  await settled('epsilon-shuffle-lower', sh.epsilon_lower);
  await settled('epsilon-balls-in-bins', bb.epsilon);
  await settled('epsilon-balls-in-bins-lower', bb.epsilon_lower);
  // Random allocation: each example in k = 2250·2400/60000 = 90 of the 2,250 steps.
  const al = cli(['account', '--batching', 'allocation', '--sigma', sigma2, '--steps', '2250', '--participations', '90', '--delta', '1e-5']);
  await settled('epsilon-allocation', al.epsilon);
  await settled('epsilon-allocation-lower', al.epsilon_lower);
  await settled('epsilon-poisson', sh.poisson_epsilon);
  assert.ok(bb.epsilon < sh.epsilon);
  assert.match(await page.textContent('[data-testid=batching-shape]'), /zero-out/);
  const said = await page.inputValue('[data-testid=privacy-statement]');
  assert.match(said, /cutting it into 25 batches of 2,400 examples/);
  assert.match(said, /gradient is replaced by zero/);
  // The attacker's numbers are the shuffled loop's own (zero-out), as `amplify train` gives them.
  const tr = cli(['train', '--dataset', '60000', '--batch', '2400', '--mechanism', 'gaussian', '--sigma', sigma2, '--steps', '2250', '--delta', '1e-5', '--batching', 'shuffle', '--target-eps', '6.7688']);
  assert.equal(tr.attack.batching, 'shuffle');
  assert.equal(tr.attack.relation, 'zero-out');
  await settled('run-tpr-at-fpr', tr.attack.tpr_upper);
  await settled('run-advantage', tr.attack.advantage_upper);
  await settled('run-bayes-success', tr.attack.bayes_success_upper);
  assert.equal(await page.inputValue('[data-testid=privacy-statement]'), tr.statement);
  // Chosen as the loop's own sampler, random allocation is what the statement quotes.
  await page.selectOption('#ctl-batching', 'allocation');
  await page.waitForFunction(() => /exactly 90 of the 2,250 steps/.test(document.querySelector('[data-testid=privacy-statement]')?.value ?? ''), null, { timeout: 30000 });
  await page.selectOption('#ctl-batching', 'shuffle');
  await page.waitForFunction(() => /cutting it into 25 batches/.test(document.querySelector('[data-testid=privacy-statement]')?.value ?? ''), null, { timeout: 30000 });
  // δ ≥ 1/|x| is flagged.
  await page.fill('[data-testid=field-delta]', '0.001');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=training-warning]')].some((w) => w.textContent.includes('1/|x|')));
  // Randomized response is refused with a reason, not a number.
  await page.selectOption('#ctl-mech', 'randomized-response');
  await page.waitForFunction(() => document.querySelector('[data-testid=tight-epsilon]')?.classList.contains('unavailable'));
  await page.screenshot({ path: `${ARTIFACTS}/training.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('training page: a run of phases downloads as a run file and opens from one; a bad file is refused in one line', async () => {
  const { page, problems } = await open('/?page=training&dataset=60000&batch=600&sigma=1&length=steps&steps=1000&delta=1e-5');
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  // Download: the run file amplify account --run reads, with the page's one phase.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-run]')]);
  assert.equal(dl.suggestedFilename(), 'run.json');
  const saved = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  assert.equal(saved.delta, 1e-5);
  assert.equal(saved.phases.length, 1);
  assert.deepEqual(saved.phases[0], { mechanism: 'gaussian', sigma: 1, sampling: { scheme: 'poisson', dataset_size: 60000, batch_size: 600 }, steps: 1000 });
  // Open: the two phases (rates given as q), shown as two phases of the page.
  const run = { delta: 1e-5, phases: [
    { mechanism: 'gaussian', sigma: 0.8, sampling: { scheme: 'poisson', q: 0.01 }, steps: 300 },
    { mechanism: 'gaussian', sigma: 1.5, sampling: { scheme: 'poisson', q: 0.02 }, steps: 1000 }] };
  await page.setInputFiles('[data-testid=open-run]', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.waitForFunction(() => new URL(location.href).searchParams.get('phases') === '2');
  assert.equal(await page.inputValue('[data-testid=field-sigma-2]'), '1.5');
  assert.equal(await page.inputValue('[data-testid=field-batch-2]'), '1200');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('sigma') === '0.8');
  await readoutsEqualCli(page);
  // The page's band contains dp_accounting's value for the same run (2.7101094294).
  const [lo, hi] = [await value(page, 'tight-epsilon-lower'), await value(page, 'tight-epsilon')].map(Number);
  assert.ok(lo <= 2.7101094294 * 1.002 && 2.7101094294 <= hi * 1.002, `[${lo}, ${hi}]`);
  // A bad file: one line naming the field; the page keeps its two phases.
  const bad = { delta: 1e-5, phases: [{ mechanism: 'gaussian', sigma: 1, sampling: { scheme: 'poisson', q: 2 }, steps: 10 }] };
  await page.setInputFiles('[data-testid=open-run]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.waitForFunction(() => document.querySelector('[data-testid=run-file-error]').textContent.includes('phases[1].sampling.q'));
  assert.equal(new URL(page.url()).searchParams.get('phases'), '2');
  assert.equal(await page.inputValue('[data-testid=field-sigma-2]'), '1.5');
  await page.screenshot({ path: `${ARTIFACTS}/training-phases.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('risk page: the attacker band, advantage and Bayes success equal the CLI; GDP; calibration; the view toggle', async () => {
  const { page, problems } = await open('/?page=risk&mech=gaussian&sigma=1&q=0.01&steps=1000&fpr=0.01&prior=0.5&delta=1e-5&target-tpr=0.05&target-eps=2');
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  await painted(page);
  assert.equal(await page.locator('canvas').count(), 4);
  const step = await page.getAttribute('[data-testid=accounting-status]', 'data-step');
  const risk = cli(['risk', '--mechanism', 'gaussian', '--sigma', '1', '--q', '0.01', '--steps', '1000', '--fpr', '0.01,0.001,0.1', '--prior', '0.5', '--grid', step]);
  await sameAsCli(page, 'tpr-at-fpr', risk.tpr_upper[0]);
  await sameAsCli(page, 'tpr-at-fpr-lower', risk.tpr_lower[0]);
  await sameAsCli(page, 'advantage', risk.advantage_upper);
  await sameAsCli(page, 'advantage-lower', risk.advantage_lower);
  await sameAsCli(page, 'bayes-success', risk.bayes_success_upper);
  await sameAsCli(page, 'bayes-success-lower', risk.bayes_success_lower);
  // Gaussian DP: the numeric μ of the certified curve with its regret and α_min, and the
  // central-limit μ, which understates it here.
  await sameAsCli(page, 'gdp-mu', risk.gdp_mu);
  await sameAsCli(page, 'gdp-regret', risk.gdp_regret);
  await sameAsCli(page, 'gdp-alpha-min', risk.gdp_alpha_min);
  await sameAsCli(page, 'gdp-mu-clt', risk.gdp_mu_clt);
  assert.equal(risk.gdp_mu_clt_kind, 'central-limit approximation');
  assert.ok(risk.gdp_mu > risk.gdp_mu_clt, `${risk.gdp_mu} > ${risk.gdp_mu_clt}`);
  assert.match(await page.textContent('[data-testid=gdp-note]'), /approximation, not a bound, and here it understates μ/);
  // The band is ordered and above random guessing; the sentence quotes it.
  const [lo, hi] = [await value(page, 'tpr-at-fpr-lower'), await value(page, 'tpr-at-fpr')].map(Number);
  assert.ok(0.01 <= lo && lo <= hi && hi < 1, `[${lo}, ${hi}]`);
  assert.match(await page.textContent('[data-testid=risk-sentence]'), /wrongly accuses at most 1% of non-members catches at most/);
  // The table of the usual FPRs: 0.1%, 1% (yours, equal to the readout) and 10%, increasing.
  const rows = await page.locator('[data-testid=tpr-table] tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.testid, Number(tr.dataset.value)]));
  assert.deepEqual(rows.map((r) => r[0]), ['tpr-row-0.001', 'tpr-row-0.01', 'tpr-row-0.1']);
  assert.equal(rows[1][1], hi);
  assert.ok(rows[0][1] < rows[1][1] && rows[1][1] < rows[2][1]);
  assert.equal(rows[0][1], risk.tpr_upper[1]);
  assert.equal(rows[2][1], risk.tpr_upper[2]);
  // The (ε, δ) summary allows more than the run's own curve.
  assert.ok(Number(await value(page, 'eps-delta-tpr')) > hi);
  // Calibration: σ for TPR ≤ 5% at α = 1% is less than σ for ε ≤ 2 at δ = 1e-5, and agrees with
  // the CLI on its own grid to the calibration's accuracy.
  const [sRisk, sEps] = [await value(page, 'sigma-for-risk'), await value(page, 'sigma-for-epsilon')].map(Number);
  assert.ok(sRisk < sEps, `${sRisk} ${sEps}`);
  const cal = cli(['calibrate', '--q', '0.01', '--steps', '1000', '--target-tpr', '0.05', '--fpr', '0.01']);
  assert.ok(Math.abs(cal.sigma / sRisk - 1) < 5e-3, `CLI ${cal.sigma}, app ${sRisk}`);
  // Inversely, the most steps at σ = 1 that keep the TPR within 5%: more than this run's 1,000
  // (whose TPR is below the target).
  assert.ok(Number(await value(page, 'steps-for-risk')) > 1000);
  // Without sampling the Gaussian's μ is exact: √k/σ.
  await page.fill('[data-testid=field-q]', '1');
  await page.waitForFunction(() => /exact/.test(document.querySelector('[data-testid=gdp-note]')?.textContent || ''));
  assert.ok(Math.abs(Number(await value(page, 'gdp-mu-clt')) - Math.sqrt(1000)) < 1e-9);
  // μ ≈ 31.6: no test has both error rates ≥ 1e-10, so no numeric μ, and the note says why.
  assert.match(await page.textContent('[data-testid=gdp-note]'), /No numeric μ/);
  // The log view of the trade-off curve repaints; randomized response hides q and has no noise to calibrate.
  await page.selectOption('#ctl-view', 'roc');
  await painted(page);
  await page.selectOption('#ctl-mech', 'randomized-response');
  await page.waitForFunction(() => document.querySelector('[data-testid=sigma-for-risk]')?.classList.contains('unavailable'));
  assert.equal(await page.locator('[data-testid=field-q]').count(), 0);
  assert.match(await page.textContent('[data-testid=risk-sentence]'), /person's value/);
  // A figure refused before its first picture shows its reason with no empty canvas; back to a
  // mechanism it applies to, it paints.
  const fresh = await open('/?page=risk&mech=randomized-response&eps=1&steps=10');
  await fresh.page.waitForSelector('#fig-noise-for-risk .figure-error');
  assert.ok(await fresh.page.locator('[data-testid=canvas-noise-for-risk]').isHidden());
  await fresh.page.selectOption('#ctl-mech', 'gaussian');
  await painted(fresh.page);
  assert.ok(await fresh.page.locator('[data-testid=canvas-noise-for-risk]').isVisible());
  assert.deepEqual(fresh.problems, []);
  await fresh.page.close();
  await page.screenshot({ path: `${ARTIFACTS}/risk.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('training page: the attacker readouts equal the risk command at the same grid', async () => {
  const { page, problems } = await open('/?page=training&dataset=60000&batch=600&mech=gaussian&sigma=1&length=steps&steps=1000&delta=1e-5&fpr=0.001&prior=0.1');
  await page.waitForSelector('[data-testid=accounting-status][data-state=final]');
  const step = await page.getAttribute('[data-testid=accounting-status]', 'data-step');
  const risk = cli(['risk', '--mechanism', 'gaussian', '--sigma', '1', '--q', '0.01', '--steps', '1000', '--fpr', '0.001', '--prior', '0.1', '--grid', step]);
  await sameAsCli(page, 'run-tpr-at-fpr', risk.tpr_upper[0]);
  await sameAsCli(page, 'run-advantage', risk.advantage_upper);
  await sameAsCli(page, 'run-bayes-success', risk.bayes_success_upper);
  assert.match(await page.inputValue('[data-testid=privacy-statement]'), /wrongly accuses at most 0\.1% of non-members/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('iteration page: readouts equal the CLI, the figure paints, a step size beyond 2/β withdraws the bound', async () => {
  const { page, problems } = await open('/?page=iteration&iterations=1000&sigma=4&delta=1e-6');
  await painted(page);
  await readoutsEqualCli(page);
  const r = Object.fromEntries(await Promise.all(['first', 'middle', 'plain'].map(async (k) => [k, Number(await value(page, `iteration-epsilon-${k}`))])));
  assert.ok(r.first < r.middle && r.middle < r.plain);
  await page.fill('[data-testid=field-step-size]', '3');
  await page.waitForSelector('[data-testid=iteration-warning]');
  assert.equal(await value(page, 'iteration-epsilon-first'), '');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step-size') === '3');
  await readoutsEqualCli(page);
  assert.equal(Number(await value(page, 'iteration-epsilon-plain')), r.plain);
  await page.screenshot({ path: `${ARTIFACTS}/iteration.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('shuffling page: every bound equals the CLI, the published range and the exact value, inverse, subsampled RR', async () => {
  const q = '&eps0=4&users=100000&delta=1e-6&target-eps=0.5&p=0.01&eps=1';
  const { page, problems } = await open(`/?page=shuffling${q}`);
  await painted(page);
  const base = ['--users', '100000', '--delta', '1e-6'];
  const best = cli(['shuffle', '--eps0', '4', ...base, '--bound', 'best']);
  assert.equal(best.bound, 'fmt21-numerical');
  await readoutsEqualCli(page);
  assert.match(await page.textContent('[data-testid=shuffle-bound-name]'), /fmt21-numerical/);
  // Feldman, McMillan & Talwar's published method [0.16754, 0.17279]; the exact value 0.16977.
  assert.ok(Math.abs(best.published_lower - 0.16754) < 5e-6 && Math.abs(best.published_upper - 0.17279) < 5e-6);
  assert.ok(Math.abs(best.epsilon - 0.16977) < 5e-6 && best.epsilon - best.epsilon_lower < 1e-8);
  for (const b of ['efmrtt19', 'bbgn19-hoeffding', 'bbgn19-bennett', 'fmt21', 'fmt21-numerical', 'fmt23', 'fmt23-numerical']) {
    const r = cli(['shuffle', '--eps0', '4', ...base, '--bound', b]);
    const row = `[data-testid=bound-${b}]`;
    assert.equal(await page.getAttribute(row, 'data-valid'), String(r.valid), b);
    if (r.valid) assert.equal(Number(await page.getAttribute(row, 'data-value')), r.epsilon, b);
    else assert.match(await page.textContent(row), /not valid here/);
  }

  // R rounds (the default 100): the certified band, the classic composition and the inverse equal
  // `amplify shuffle --rounds`; far below composing the one-round guarantee (about 17 here).
  const rr = cli(['shuffle', '--eps0', '4', ...base, '--bound', 'fmt21-numerical', '--rounds', '100', '--fpr', '0.01']);
  await sameAsCli(page, 'rounds-epsilon', rr.epsilon);
  await sameAsCli(page, 'rounds-tpr', rr.tpr);
  await sameAsCli(page, 'rounds-tpr-lower', rr.tpr_lower);
  await sameAsCli(page, 'rounds-epsilon-lower', rr.epsilon_lower);
  await sameAsCli(page, 'rounds-naive-epsilon', rr.naive_epsilon);
  assert.ok(rr.epsilon < 2.1 && rr.naive_epsilon > 16, `${rr.epsilon} vs ${rr.naive_epsilon}`);
  const inv = cli(['shuffle', '--bound', 'fmt21-numerical', '--invert', '--target-eps', '0.5', ...base, '--rounds', '100']);
  await sameAsCli(page, 'local-epsilon-for-target-rounds', inv.eps0);
  // Ten rounds: the numbers follow (waiting for the new value, not for a time).
  const r10 = cli(['shuffle', '--eps0', '4', ...base, '--bound', 'fmt21-numerical', '--rounds', '10']);
  await page.fill('[data-testid=field-rounds]', '10');
  await page.waitForFunction((want) => Number(document.querySelector('[data-testid="rounds-epsilon"]')?.dataset.value) === want, r10.epsilon, { timeout: 120_000 });
  await sameAsCli(page, 'rounds-naive-epsilon', r10.naive_epsilon);

  // ε₀ = 0.4: Erlingsson et al.'s box now holds, and its number is shown.
  await page.fill('[data-testid=field-eps0]', '0.4');
  await page.waitForFunction(() => document.querySelector('[data-testid=bound-efmrtt19]')?.dataset.valid === 'true');
  const e = cli(['shuffle', '--eps0', '0.4', ...base, '--bound', 'efmrtt19']);
  assert.equal(Number(await page.getAttribute('[data-testid=bound-efmrtt19]', 'data-value')), e.epsilon);
  await page.waitForFunction(() => !document.querySelector('.figure-pending'));
  await painted(page);
  await page.screenshot({ path: `${ARTIFACTS}/shuffling.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('shuffling page for randomized response: the stronger clones (FMT23) are the tightest and equal the CLI', async () => {
  const q = '&eps0=4&users=100000&delta=1e-6&randomizer=k-rr&k=2';
  const { page, problems } = await open(`/?page=shuffling${q}`);
  await painted(page);
  const base = ['--eps0', '4', '--users', '100000', '--delta', '1e-6', '--randomizer', 'k-rr', '--k', '2'];
  const best = cli(['shuffle', ...base, '--bound', 'best']);
  assert.equal(best.bound, 'fmt23-numerical');
  assert.ok(Math.abs(best.epsilon - 0.118153) < 5e-7);
  await readoutsEqualCli(page);
  assert.match(await page.textContent('[data-testid=shuffle-bound-name]'), /fmt23-numerical/);
  for (const b of ['fmt23', 'fmt23-numerical']) {
    const r = cli(['shuffle', ...base, '--bound', b]);
    assert.equal(r.valid, true, b);
    assert.equal(Number(await page.getAttribute(`[data-testid=bound-${b}]`, 'data-value')), r.epsilon, b);
  }
  await page.waitForFunction(() => !document.querySelector('.figure-pending'));
  await painted(page);
  await page.screenshot({ path: `${ARTIFACTS}/shuffling-krr.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a figure exports as SVG, PNG at twice the pixel ratio, CSV and JSON of its series', async () => {
  const { page, problems } = await open('/?page=subsampling&eps=2&p=0.05');
  await painted(page);
  const id = 'amplification-vs-rate';
  const fetchDownload = async (ext) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=export-${ext}-${id}]`)]);
    assert.equal(dl.suggestedFilename(), `${id}.${ext}`);
    return readFileSync(await dl.path());
  };
  const svg = (await fetchDownload('svg')).toString('utf8');
  assert.match(svg, /^<svg[^>]*width="820"/);
  assert.match(svg, /Amplified ε′ against the sampling rate/);
  const png = await fetchDownload('png');
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  const css = await page.$eval(`[data-testid=canvas-${id}]`, (c) => [c.clientWidth, c.clientHeight]);
  assert.equal(w, Math.round(css[0] * 2));
  assert.equal(h, Math.round(css[1] * 2));
  const csv = (await fetchDownload('csv')).toString('utf8');
  assert.match(csv, /^# figure: amplification-vs-rate/);
  assert.match(csv, /# parameter: eps = 2\n/);
  assert.match(csv, /# parameter: p = 0\.05\n/);
  assert.match(csv, /\nseries,kind,x,y,y_upper\n/);
  // The reader's point: ε = 2 at p = 0.05 gives log(1 + 0.05(e² − 1)) (the CLI's number).
  const eps = cli(['subsample', '--scheme', 'poisson', '--eps', '2', '--p', '0.05']).epsilon;
  assert.ok(csv.split('\n').some((r) => r.endsWith(`,marker,0.05,${eps},`)), 'marker row');
  const json = JSON.parse((await fetchDownload('json')).toString('utf8'));
  assert.equal(json.figure, id);
  assert.equal(json.parameters.eps.value, '2');
  assert.ok(json.chart.series.length >= 5 && json.chart.series.every((s) => s.points.length > 0));
  assert.deepEqual(problems, []);
  await page.close();
});

test('colour theme follows the system, the toggle overrides it and is remembered, figures redraw dark', async () => {
  const { page, problems } = await open('/?page=subsampling');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await painted(page);
  // The canvas's top-left pixel, read through a copy (no readback on the page's own canvas).
  const redAt = () => page.evaluate(() => {
    const src = document.querySelector('[data-testid=canvas-amplification-vs-rate]');
    const c = document.createElement('canvas');
    c.width = 4; c.height = 4;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(src, 0, 0);
    return ctx.getImageData(1, 1, 1, 1).data[0];
  });
  // Poll the pixel until the repaint shows the theme (30 s at most: a cold browser is slow).
  const waitRed = async (ok) => {
    const until = Date.now() + 30_000;
    while (!ok(await redAt()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.ok(ok(await redAt()));
  };
  await waitRed((r) => r < 60);
  const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.equal(await bg(), 'rgb(13, 17, 23)');
  // system → light → dark → system.
  await page.click('[data-testid=theme-toggle]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.equal(await bg(), 'rgb(255, 255, 255)');
  await waitRed((r) => r > 200);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.equal(await page.getAttribute('[data-testid=theme-toggle]', 'data-theme-choice'), 'light');
  await page.click('[data-testid=theme-toggle]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.click('[data-testid=theme-toggle]');
  assert.equal(await page.getAttribute('[data-testid=theme-toggle]', 'data-theme-choice'), 'system');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  await page.screenshot({ path: `${ARTIFACTS}/theme.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test('pointer readout: a crosshair with every series value at the pointer, gone when the pointer leaves', async () => {
  const { page, problems } = await open('/?page=subsampling&eps=1&p=0.01');
  await painted(page);
  const id = 'amplification-vs-rate';
  await page.locator(`[data-testid=canvas-${id}]`).scrollIntoViewIfNeeded();
  const box = await page.locator(`[data-testid=canvas-${id}]`).boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  const readout = page.locator(`[data-testid=crosshair-${id}]`);
  await readout.waitFor();
  const text = await readout.innerText();
  const x = Number(text.match(/sampling rate p: ([0-9.e-]+)/)[1]);
  const yours = Number(text.match(/your ε = 1: ([0-9.e-]+)/)[1]);
  // The reader's curve is log(1 + p(e − 1)); the readout interpolates between plotted points
  // and shows 4 significant digits.
  const exact = Math.log1p(x * (Math.E - 1));
  assert.ok(Math.abs(yours / exact - 1) < 2e-3, `${yours} vs ${exact} at p = ${x}`);
  assert.ok((text.match(/: /g) || []).length >= 6, text);
  await page.mouse.move(box.x - 20, box.y - 20);
  await readout.waitFor({ state: 'detached' });
  // Touch: a tap shows it too.
  await page.dispatchEvent(`[data-testid=canvas-${id}]`, 'pointerdown', { clientX: box.x + box.width * 0.5, clientY: box.y + box.height * 0.5, pointerType: 'touch' });
  await readout.waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

