//! The last few values of an expensive computation, so that the readouts, the figures and the
//! CLI, which ask for the same ones, compute each once. Not a formula.

use std::cell::RefCell;
use std::rc::Rc;

/// (key, value) pairs, most recent last.
pub type Slot<K, V> = RefCell<Vec<(K, Rc<V>)>>;

/// How many values a slot keeps.
const KEEP: usize = 4;

/// The value for `key`, made once and remembered (the last [`KEEP`] keys of this slot).
pub fn remembered<K: PartialEq, V>(
    slot: &'static std::thread::LocalKey<Slot<K, V>>,
    key: K,
    make: impl FnOnce() -> Result<V, String>,
) -> Result<Rc<V>, String> {
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
