// Regenerates docs/screenshot.png (the README's picture) from a release build in dist/:
//   node tools/screenshot.mjs
import { serve } from '../tests/e2e/server.mjs';
import { launch } from '../tests/e2e/browser.mjs';
import { resolve } from 'node:path';
import { mkdirSync } from 'node:fs';

const ROOT = resolve(import.meta.dirname, '..');
mkdirSync(resolve(ROOT, 'docs'), { recursive: true });
const server = await serve(resolve(ROOT, 'dist'));
const context = await launch({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/?page=subsampling&scheme=poisson&eps=1&delta=1e-6&p=0.01`);
await page.waitForFunction(() => [...document.querySelectorAll('canvas')].every((c) => c.dataset.painted === 'true'));
await page.screenshot({ path: resolve(ROOT, 'docs', 'screenshot.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1180 } });
await context.close();
server.close();
