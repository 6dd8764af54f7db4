// Loads the WebAssembly app. A separate file (not an inline script) so that the page's
// Content-Security-Policy can forbid inline scripts entirely.
import init from './amplification-explorer.js';

// While the WebAssembly downloads, the main thread is idle:
//   - a view that uses the compute worker starts it now (src/worker.rs takes it over), so that its
//     script and the glue it imports arrive during the download instead of after the start-up;
//   - the fonts the figures use are looked up once (the first use of a font on a canvas costs tens
//     of milliseconds on a slow phone, which would otherwise delay the first live figure).
const html = document.documentElement;
const workerUrl = html.getAttribute('data-worker');
if (workerUrl && html.getAttribute('data-compute') === 'worker') {
  try {
    const worker = new Worker(workerUrl, { type: 'module' });
    // A script that fails to load says so before the app may be there to hear it.
    worker.addEventListener('error', () => { worker.failed = true; });
    window.__ampWorker = worker;
  } catch (e) {
    // No module workers here: the app computes on the page.
  }
}
const warm = () => {
  try {
    const g = document.createElement('canvas').getContext('2d');
    const scale = window.devicePixelRatio || 1;
    // plots/src/draw: text at 12, 13 and 16 px times the device's pixel ratio.
    for (const px of [12, 13, 16]) {
      g.font = `normal ${px * scale}px sans-serif`;
      g.measureText('0.1 ε');
    }
  } catch (e) {
    // Only a head start: nothing depends on it.
  }
};
(window.requestIdleCallback || setTimeout)(warm);

init({ module_or_path: new URL('./amplification-explorer_bg.wasm', import.meta.url) });
