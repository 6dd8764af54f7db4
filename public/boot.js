// Loads the WebAssembly app. A separate file (not an inline script) so that the page's
// Content-Security-Policy can forbid inline scripts entirely.
import init from './amplification-explorer.js';

init({ module_or_path: new URL('./amplification-explorer_bg.wasm', import.meta.url) });
