// Screenshots of pages and embeds at two widths and both themes, for looking at what was built:
//   node tests/e2e/shots.mjs OUTDIR 'page=shuffling&randomizer=k-rr&k=2' ...
// Needs the release build in dist/ (trunk build --release). Not a test.
import { launch } from './browser.mjs';
import { serve } from './server.mjs';
import { resolve } from 'node:path';

const [out, ...queries] = process.argv.slice(2);
const server = await serve(resolve(import.meta.dirname, '../../dist'));
const port = server.address().port;
const context = await launch();
for (const q of queries) {
  for (const width of [1280, 360]) {
    for (const scheme of ['light', 'dark']) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`http://127.0.0.1:${port}/?${q}`);
      await page.waitForFunction(() => {
        const c = [...document.querySelectorAll('canvas')];
        // A page without figures (home) is ready once the app is live.
        if (c.length === 0) return document.documentElement.dataset.app === 'live';
        return c.every((x) => x.dataset.painted === 'true' || x.closest('.plot-wrap.refused')) && !document.querySelector('.figure-pending');
      }, null, { timeout: 60000 }).catch(() => console.error(`${q} ${width} ${scheme}: not painted in 60 s`));
      // Numbers computed in the compute worker (a page that refines) arrive after the figures.
      await page.waitForFunction(() => !document.querySelector('[data-numbers=pending]'),
        null, { timeout: 120000 }).catch(() => console.error(`${q} ${width} ${scheme}: numbers not final in 120 s`));
      // The pages' prose (help under controls the pre-rendered page did not show) arrives with
      // content.json a moment after start: wait for it, not for a fixed time.
      await page.waitForFunction(() => ['ready', 'failed'].includes(document.documentElement.dataset.contentState),
        null, { timeout: 60000 }).catch(() => console.error(`${q} ${width} ${scheme}: content not loaded in 60 s`));
      const name = q.replace(/[^a-z0-9]+/gi, '_').slice(0, 60);
      // The full page, in slices of at most 2000 px so that each can be looked at.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, i = 0; y < height; y += 2000, i++) {
        await page.screenshot({
          path: `${out}/${name}-${width}-${scheme}-${i}.png`,
          fullPage: true,
          clip: { x: 0, y, width, height: Math.min(2000, height - y) },
        });
      }
      await page.close();
    }
  }
}
await context.close();
server.close();
