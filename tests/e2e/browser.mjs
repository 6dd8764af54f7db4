// Launching the system Chromium with playwright-core (no browser download), with the flags this
// machine needs: no sandbox as root, and no background networking to hosts it cannot reach.
import { chromium } from 'playwright-core';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launch(options = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'amp-e2e-'));
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    ...options,
  });
}

/** Whether a failed request is a preload that an old `?page=`/`?embed=` link drops by design: its
 *  document is sent on to the view's address before anything is painted (public/early.js), and the
 *  wasm and glue downloads it had started are aborted with it. */
export function droppedByRedirect(path, request) {
  return /[?&](page|embed)=/.test(path) && request.failure()?.errorText === 'net::ERR_ABORTED'
    // The app's prose (content-*.json) too: the first view may start fetching it before the old
    // link is sent on to the page's address.
    && (/\.(js|wasm)$/.test(request.url()) || /\/content-[0-9a-f]+\.json$/.test(request.url()));
}
