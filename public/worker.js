// The compute worker (src/worker.rs): runs the compute module (compute/, the app's second
// WebAssembly module, fetched when the worker starts) off the page's thread. Each message is a
// request {id, slot, job}, answered with {id, slot, text, measures} (text null if the computation
// failed). Requests wait in a queue with one place per slot: a newer request for a slot replaces
// the older one if that has not started, so stale work is dropped, not done.
// Where no worker can be started, the page imports this file and runs the same queue on its own
// thread (`serve`, through window.__ampLocal in boot.js).
import init, { answer } from './amp-compute.js';

// The queue; `post` sends an answer back, `stop` ends this instance after a trap.
export function serve(post, stop) {
  const ready = init();
  // The page says so on its root (data-compute-state), for the tests.
  ready.then(() => post({ ready: true }), () => {});
  const queue = new Map();
  let running = false;
  let dead = false;
  const next = () => {
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
    if (!dead) {
      try {
        text = answer(req.job);
      } catch (e) {
        // A trap (a panic aborts): this instance is done for; the page starts a fresh worker.
        console.error('compute worker:', e);
        dead = true;
      }
    }
    performance.measure(name, 'job-start');
    performance.clearMarks('job-start');
    // In a worker its timeline is its own: its measures go to the page with the answer. On the
    // page's thread they are on the page's timeline already.
    let measures = [];
    if (typeof document === 'undefined') {
      measures = performance.getEntriesByType('measure').map((m) => [m.name, m.duration]);
      performance.clearMeasures();
      performance.clearMarks();
    }
    post({ id: req.id, slot: req.slot, text, measures });
    if (dead) {
      stop();
      return;
    }
    // A task of its own for each request, so that messages that came meanwhile are queued (and
    // replace what they supersede) before the next computation starts.
    setTimeout(next, 0);
  };
  return (data) => {
    queue.delete(data.slot);
    queue.set(data.slot, data);
    if (!running) {
      running = true;
      ready.then(() => setTimeout(next, 0), (e) => {
        // No instance at all: the page falls back (src/worker.rs).
        console.error('compute worker:', e);
        post({ fatal: true });
        stop();
      });
    }
  };
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const handle = serve((m) => postMessage(m), () => close());
  onmessage = ({ data }) => handle(data);
}
