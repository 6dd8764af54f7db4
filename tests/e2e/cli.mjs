// The `amplify` CLI from the end-to-end tests: its JSON, and the one comparison of a page's numbers
// with it (used by app.test.mjs, compute.test.mjs and worker-page.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const AMPLIFY = process.env.AMPLIFY_BIN || resolve(ROOT, 'target', 'tool', 'amplify');

/** `amplify <args> --json`, parsed. */
export function cli(args) {
  return JSON.parse(execFileSync(AMPLIFY, [...args, '--json'], { encoding: 'utf8' }));
}

/** Every number on the page against `amplify page <id> --json` at the settings the page's URL
 *  holds: each readout the CLI gives a number has exactly that double in `data-value`, each
 *  without one shows none (a readout the page does not show is skipped: a widget shows it its own
 *  way), once the page's numbers are current. Returns the CLI's answer and how many numbers were compared. */
export async function pageEqualsCli(page) {
  // Numbers computed in the compute worker land a moment after the settings change: wait for the
  // page to say its numbers are for the settings it shows (the quick and the refined ones).
  await page.waitForFunction(() => !document.querySelector('[data-numbers=pending]'), null, { timeout: 180_000 });
  const url = new URL(page.url());
  const id = url.pathname.split('/').filter(Boolean).pop() ?? 'home';
  const flags = [...url.searchParams].filter(([k]) => k !== 'page').flatMap(([k, v]) => [`--${k}`, v]);
  const want = cli(['page', id, ...flags]);
  assert.equal(want.page, id);
  // Read every readout at once, without waiting for one the page does not show.
  const shown = await page.evaluate((ids) => Object.fromEntries(ids.map((i) => {
    const e = document.querySelector(`[data-testid="${i}"]`);
    return [i, e ? e.getAttribute('data-value') : null];
  })), want.readouts.map((r) => r.id));
  let compared = 0;
  for (const r of want.readouts) {
    const got = shown[r.id];
    if (got === null) continue;
    if (r.value === null) {
      assert.ok(got === '' || Number.isNaN(Number(got)), `${id}/${r.id}: the page shows ${got}, the CLI none (${r.reason})`);
    } else {
      assert.equal(Number(got), r.value, `${id}/${r.id}: page ${got}, CLI ${r.value}`);
      compared++;
    }
  }
  return { want, compared };
}
