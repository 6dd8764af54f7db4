//! Named spans of work that the app can measure (the benchmark reads them as
//! `performance.measure` entries) without this crate knowing about the browser. The app installs
//! a hook once ([`install`]); natively, and before that, a span costs one atomic load.

use std::sync::OnceLock;

/// Whether a span starts or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Before the work.
    Start,
    /// After it.
    End,
}

static HOOK: OnceLock<fn(&str, Edge)> = OnceLock::new();

/// Install the hook called at both edges of every span (only the first call counts).
pub fn install(hook: fn(&str, Edge)) {
    let _ = HOOK.set(hook);
}

/// Run `f` as the span `name`.
pub fn span<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let hook = HOOK.get().copied();
    if let Some(h) = hook {
        h(name, Edge::Start);
    }
    let out = f();
    if let Some(h) = hook {
        h(name, Edge::End);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    static SEEN: Mutex<Vec<(String, Edge)>> = Mutex::new(Vec::new());

    fn record(name: &str, edge: Edge) {
        SEEN.lock().unwrap().push((name.to_string(), edge));
    }

    #[test]
    fn a_span_calls_the_hook_around_the_work_and_returns_its_value() {
        install(record);
        let v = span("probe:test", || {
            assert_eq!(
                SEEN.lock().unwrap().last(),
                Some(&("probe:test".to_string(), Edge::Start))
            );
            7
        });
        assert_eq!(v, 7);
        assert_eq!(
            SEEN.lock().unwrap().last(),
            Some(&("probe:test".to_string(), Edge::End))
        );
    }
}
