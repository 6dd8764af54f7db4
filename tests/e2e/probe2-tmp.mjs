import { launch } from './browser.mjs';
import { serve } from './server.mjs';
import { resolve } from 'node:path';
const server = await serve(resolve(import.meta.dirname, '../../dist'));
const port = server.address().port;
for (const js of [false, true]) {
  const context = await launch({ javaScriptEnabled: js });
  const page = await context.newPage();
  if (js && process.argv[3]) await page.route(/\.wasm$/, (r) => r.abort());
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto(`http://127.0.0.1:${port}${process.argv[2]}`);
  await page.waitForTimeout(js ? 4000 : 500);
  console.log(js ? 'LIVE' : 'STATIC', JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('main > *, main figure > *, .static-after > *')].map((e) => `${e.tagName}.${e.className?.baseVal ?? e.className} y=${Math.round(e.getBoundingClientRect().top)} h=${Math.round(e.getBoundingClientRect().height)}`)), null, 0));
  await context.close();
}
server.close();
