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

/// The browser's performance timeline (`performance.mark` / `performance.measure` of the page or
/// of the compute worker, whichever global runs this module), shared by the page's module and the
/// compute module. Natively (the CLI, the native tests) every function does nothing.
pub mod timeline {
    use super::Edge;

    /// The hook for [`super::install`]: each span becomes a `performance.measure` entry named
    /// after it, through a start mark `{name}-start`.
    pub fn edge(name: &str, edge: Edge) {
        let start = format!("{name}-start");
        match edge {
            Edge::Start => mark(&start),
            Edge::End => measure(name, &start),
        }
    }

    /// `performance.mark(name)`.
    pub fn mark(name: &str) {
        call("mark", &[name]);
    }

    /// `performance.measure(name, start_mark)`, then `performance.clearMarks(start_mark)`.
    pub fn measure(name: &str, start_mark: &str) {
        call("measure", &[name, start_mark]);
        call("clearMarks", &[start_mark]);
    }

    /// `performance[method](...args)` where the global has a `performance` object with that
    /// method; otherwise (no timeline, or an exception) nothing.
    #[cfg(target_arch = "wasm32")]
    fn call(method: &str, args: &[&str]) {
        use js_sys::wasm_bindgen::{JsCast, JsValue};
        let Ok(p) = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        else {
            return;
        };
        if p.is_undefined() || p.is_null() {
            return;
        }
        let Ok(f) = js_sys::Reflect::get(&p, &JsValue::from_str(method)) else {
            return;
        };
        let Ok(f) = f.dyn_into::<js_sys::Function>() else {
            return;
        };
        let list = js_sys::Array::new();
        for a in args {
            list.push(&JsValue::from_str(a));
        }
        let _ = f.apply(&p, &list);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn call(_method: &str, _args: &[&str]) {}
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
