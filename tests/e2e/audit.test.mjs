// End-to-end tests of the live app, the longest ones (every embed, the accessibility audit of every
// page and embed, the phone's width), in a file of their own so that the test runner can run it
// beside app.test.mjs when two cores are free. Run by scripts/test.sh after `trunk build --release`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AMPLIFY, ROOT, open, painted } from './live.mjs';

// Every registry figure embeds and paints (one canvas), and the accessibility audit of each: one
// load per embed serves both.
test('every embed paints its one figure; accessibility audit (axe-core): no serious or critical violation on any page or embed, light and dark', async () => {
  const AXE = readFileSync(resolve(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  const figures = JSON.parse(execFileSync(AMPLIFY, ['figures', '--json'], { encoding: 'utf8' }));
  assert.ok(figures.length >= 21);
  const urls = [
    ...['home', 'subsampling', 'limits', 'accuracy', 'renyi', 'training', 'risk', 'shuffling', 'iteration'].map((p) => `/?page=${p}`),
    ...figures.map((f) => `/?embed=${f.id}`),
  ];
  const found = [];
  for (const scheme of ['light', 'dark']) {
    for (const url of scheme === 'light' ? urls : urls.filter((u) => u.includes('page='))) {
      const { page, problems } = await open(url);
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      if (!url.endsWith('=home')) await painted(page);
      if (url.includes('embed=')) assert.equal(await page.locator('canvas').count(), 1, `${url}: one canvas`);
      // Evaluated through the debugging protocol, so the page's Content-Security-Policy (no
      // inline scripts) stays as it is.
      await page.evaluate(AXE);
      const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((x) => x.impact === 'serious' || x.impact === 'critical')
        .map((x) => `${x.id} (${x.impact}): ${x.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`));
      found.push(...v.map((x) => `${url} [${scheme}] ${x}`));
      // Every page and embed has exactly one level-1 heading (an embed's is its figure's title).
      assert.equal(await page.locator('h1').count(), 1, `${url}: one h1`);
      assert.deepEqual(problems, [], url);
      await page.close();
    }
  }
  assert.deepEqual(found, []);
});

test('360 px wide: every page fits without sideways scrolling; offline after the first load, pages still work', async () => {
  const { page, problems } = await open('/?page=home');
  await page.setViewportSize({ width: 360, height: 800 });
  for (const p of ['home', 'subsampling', 'limits', 'accuracy', 'renyi', 'training', 'risk', 'shuffling', 'iteration']) {
    if (p !== 'home') {
      await page.click(`[data-testid=nav-${p}]`);
      await painted(page);
    }
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 360, `${p}: ${wide} px wide at 360`);
    // After the first load nothing needs the network: go offline and keep navigating. (The
    // pages' prose arrives from the app's own host once the first page has started.)
    if (p === 'home') {
      // The prose and the compute module (its worker started once the page is live).
      await page.waitForFunction(() => document.documentElement.dataset.contentState === 'ready'
        && document.documentElement.dataset.computeState === 'ready');
      await page.context().setOffline(true);
    } else {
      // Every page's explanation is there, read from the content file, not the loading line.
      const prose = await page.$$eval('section.explain', (ss) => ss.map((s) => s.textContent));
      assert.ok(prose.length > 0 && prose.every((t) => t.length > 200 && !t.includes('Loading the explanation')), p);
    }
  }
  await page.context().setOffline(false);
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(problems, []);
  await page.close();
});
