// Where a phone's first second after the download goes (issue 35's phone target): for each path,
// one cold load on the phone profile of bench/phone.mjs, and from navigation start:
//   - the end of the WebAssembly module's download;
//   - `app-live` (the app mounted in place of the pre-rendered page);
//   - every `chart:` and `redraw:` measure up to 0.4 s after that (the first redraw includes the
//     browser's first layout of the mounted page, through the canvas's size).
// Reports figures, never fails. Needs a release build in dist/. Usage:
//   node bench/startup.mjs / /training/ /embed/rdp-base/
import { resolve } from 'node:path';
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';

const server = await serve(resolve(import.meta.dirname, '..', 'dist'), { gzip: true });
const origin = `http://127.0.0.1:${server.address().port}`;
const context = await launch();
const paths = process.argv.slice(2);
for (const path of paths.length ? paths : ['/']) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 412, height: 823 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(origin + path, { waitUntil: 'load', timeout: 120000 });
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live'
    && (performance.getEntriesByType('measure').some((m) => m.name.startsWith('redraw:')) || !document.querySelector('canvas')),
  null, { timeout: 120000 });
  // The measures that follow the first redraw: wait until there is one after app-live + 0.4 s or time passes.
  await page.waitForFunction(() => performance.now() > (performance.getEntriesByName('app-live')[0]?.startTime ?? 0) + 600, null, { timeout: 60000 });
  const line = await page.evaluate(() => {
    const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
    const live = performance.getEntriesByName('app-live')[0]?.startTime ?? NaN;
    const spans = performance.getEntriesByType('measure')
      .filter((m) => /^(chart|redraw):/.test(m.name) && m.startTime < live + 400)
      .map((m) => `${m.name} ${Math.round(m.startTime)}+${Math.round(m.duration)}`);
    return `wasm downloaded ${Math.round(wasm?.responseEnd)} ms, live ${Math.round(live)} ms | ${spans.join(', ')}`;
  });
  console.log(`${path}: ${line}`);
  await page.close();
}
await context.close();
server.close();
