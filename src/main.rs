//! Entry point: mounts the app. Everything else is in the library.
fn main() {
    amplification_explorer::start();
}
