//! Entry point: mounts the app. Everything else is in the library, except the allocator.

#[cfg(target_arch = "wasm32")]
mod heap;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: heap::Heap = heap::Heap::new();

fn main() {
    amplification_explorer::start();
}
