// The compute worker (src/worker.rs): a second instance of the app's WebAssembly module, which
// computes what the page hands it (a page's refined numbers, a slow figure) off the page's thread.
// The page's first message is the module it compiled, so nothing is downloaded or compiled again;
// each later message is a request {id, slot, job}, answered with {id, slot, text} (text null if
// the computation failed). Requests wait in a queue with one place per slot: a newer request for a
// slot replaces the older one if that has not started, so stale work is dropped, not done.
import init, { answer } from './amplification-explorer.js';

let ready = null;
const queue = new Map();
let running = false;

function next() {
  const slot = queue.keys().next();
  if (slot.done) {
    running = false;
    return;
  }
  const req = queue.get(slot.value);
  queue.delete(slot.value);
  let text = null;
  // Measured as the page measures its own work (a figure as chart:<id>), for the benchmarks: the
  // measures go to the page with the answer.
  const name = req.slot.startsWith('figure:') ? `chart:${req.slot.slice(7)}` : `worker:${req.slot}`;
  performance.mark('job-start');
  try {
    text = answer(req.job);
  } catch (e) {
    // A trap (a panic aborts): this instance is done for; the page starts a fresh worker.
    console.error('compute worker:', e);
  }
  performance.measure(name, 'job-start');
  const measures = performance.getEntriesByType('measure').map((m) => [m.name, m.duration]);
  performance.clearMeasures();
  performance.clearMarks();
  postMessage({ id: req.id, slot: req.slot, text, measures });
  if (text === null) {
    close();
    return;
  }
  // A task of its own for each request, so that messages that came meanwhile are queued (and
  // replace what they supersede) before the next computation starts.
  setTimeout(next, 0);
}

onmessage = ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    return;
  }
  queue.delete(data.slot);
  queue.set(data.slot, data);
  if (!running && ready) {
    running = true;
    ready.then(() => setTimeout(next, 0), (e) => {
      // No instance at all: the page computes everything itself from now on.
      console.error('compute worker:', e);
      postMessage({ fatal: true });
      close();
    });
  }
};
