//! The last few values of an expensive computation, so that callers who ask for the same ones
//! (a page's readouts, its figures, the CLI) compute each once. Not a formula: a cache keyed by
//! the computation's inputs, per thread, the most recent kept.

use std::cell::RefCell;
use std::rc::Rc;

/// (key, value) pairs, most recent last: declare one per computation with `thread_local!`.
pub type Slot<K, V> = RefCell<Vec<(K, Rc<V>)>>;

/// How many values a slot keeps.
pub const KEEP: usize = 4;

/// The value for `key`, made once and remembered (the last [`KEEP`] keys of this slot); an error
/// is returned and not remembered.
pub fn remembered<K: PartialEq, V, E>(
    slot: &'static std::thread::LocalKey<Slot<K, V>>,
    key: K,
    make: impl FnOnce() -> Result<V, E>,
) -> Result<Rc<V>, E> {
    if let Some(hit) = slot.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }) {
        return Ok(hit);
    }
    let v = Rc::new(make()?);
    slot.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= KEEP {
            c.remove(0);
        }
        c.push((key, v.clone()));
    });
    Ok(v)
}
