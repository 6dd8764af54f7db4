//! Entry point: mounts the app (on a page; not in the compute worker). Everything else is in the library, except the allocator.

#[cfg(target_arch = "wasm32")]
mod heap;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: heap::Heap = heap::Heap::new();

fn main() {
    // The same module runs in the compute worker (public/worker.js), where there is no window and
    // nothing to mount: there it only answers requests (amplification_explorer::worker).
    if web_sys::window().is_some() {
        amplification_explorer::start();
    }
}
