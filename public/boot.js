// Loads the WebAssembly app. A separate file (not an inline script) so that the page's
// Content-Security-Policy can forbid inline scripts entirely.
import init from './amplification-explorer.js';

// Where no compute worker can be started (src/worker.rs), its stand-in on the page: the same
// messages, answered on the page's thread by the compute module, through the worker script's own
// queue (public/worker.js `serve`), imported from `url` when first asked.
window.__ampLocal = (url) => {
  const port = { onmessage: null, onerror: null, terminate() {} };
  let handle = null;
  port.postMessage = (data) => {
    handle ??= import(url).then(({ serve }) => serve((m) => port.onmessage?.({ data: m }), () => {}));
    handle.then((h) => h(data), () => port.onerror?.({}));
  };
  return port;
};

// While the WebAssembly downloads, the main thread is idle: the fonts the figures use are looked
// up once (the first use of a font on a canvas costs tens of milliseconds on a slow phone, which
// would otherwise delay the first live figure).
const warm = () => {
  try {
    const g = document.createElement('canvas').getContext('2d');
    const scale = window.devicePixelRatio || 1;
    // chart/src/draw: text at 12, 13 and 16 px times the device's pixel ratio.
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
