//! Computations too slow to follow a slider: run in the compute worker ([`crate::worker`]) as
//! the inputs change, or, where there is no worker, on the page once the inputs have rested;
//! with a visible "computing" state meanwhile (the last result stays on screen).

use std::time::Duration;

use leptos::leptos_dom::helpers::{set_timeout_with_handle, TimeoutHandle};
use leptos::prelude::*;

/// How long the inputs must rest before a deferred computation starts.
pub const REST: Duration = Duration::from_millis(250);

/// A value computed from the inputs `key` describes, once they rest.
pub struct Deferred<K: Send + Sync + 'static, T: Send + Sync + 'static> {
    /// The inputs it was computed for, and the value.
    pub result: RwSignal<Option<(K, T)>>,
    key: Memo<K>,
}

// Signals are handles: copyable whatever K and T are (a derive would ask K, T: Copy).
impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Clone for Deferred<K, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Copy for Deferred<K, T> {}

impl<K, T> Deferred<K, T>
where
    K: Clone + PartialEq + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    /// Whether the value on screen is older than the inputs (or there is none yet).
    pub fn pending(&self) -> bool {
        let key = self.key;
        self.result
            .with(|r| key.with(|k| r.as_ref().map(|(rk, _)| rk != k).unwrap_or(true)))
    }

    /// The value for the current inputs, if it is ready.
    pub fn current(&self) -> Option<T> {
        let key = self.key;
        self.result.with(|r| {
            r.as_ref()
                .filter(|(rk, _)| key.with(|k| k == rk))
                .map(|(_, v)| v.clone())
        })
    }

    /// The last value computed, current or not.
    pub fn last(&self) -> Option<T> {
        self.result.with(|r| r.as_ref().map(|(_, v)| v.clone()))
    }
}

/// Reads a value out of the compute worker's answer.
pub type ReadAnswer<T> = Box<dyn Fn(&str) -> Option<T>>;

/// Work that the compute worker can do instead of the page: the request for the current inputs
/// and how to read its answer.
pub struct Remote<T> {
    /// The slot of [`crate::worker::submit`] (a newer request in it supersedes an older one).
    pub slot: String,
    /// What is computed, in words, for the progress line.
    pub what: String,
    /// The request for the current state (read untracked).
    pub request: Box<dyn Fn() -> String>,
    /// The value in an answer; `None` if the answer is not one (then the page computes it).
    pub read: ReadAnswer<T>,
}

impl<T> Remote<T> {
    /// The compute worker's `job` for the app's current values, its answer read by `read`; `what`
    /// names it on the progress line.
    pub fn job(
        job: amp_site::job::Job,
        what: impl Into<String>,
        read: impl Fn(&str) -> Option<T> + 'static,
    ) -> Self {
        let state = expect_context::<crate::state::AppState>();
        Remote {
            slot: job.slot(),
            what: what.into(),
            request: Box::new(move || state.values.with_untracked(|v| job.request(v))),
            read: Box::new(read),
        }
    }
}

/// Run `compute` (which reads the state untracked) when `key` has not changed for `rest`; the
/// first run starts at once. A change while waiting restarts the wait, so a slider drag costs
/// nothing until it stops. With a value already known for the current inputs (`known`), nothing
/// is computed until the inputs change. With `remote`, each change of the inputs is sent to the
/// compute worker at once (no wait: the worker drops what a newer request supersedes), and the
/// answer lands only if the inputs are still the ones it was computed for; where there is no
/// worker, or it fails, `compute` runs on the page as without.
pub fn deferred_from<K, T>(
    key: Memo<K>,
    rest: Duration,
    known: Option<T>,
    remote: Option<Remote<T>>,
    compute: impl Fn() -> T + Copy + 'static,
) -> Deferred<K, T>
where
    K: Clone + PartialEq + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    let skip = StoredValue::new(known.is_some());
    let result = RwSignal::new(known.map(|v| (key.get_untracked(), v)));
    let handle = StoredValue::new(None::<TimeoutHandle>);
    let first = StoredValue::new(true);
    let remote = remote.map(std::rc::Rc::new);
    Effect::new(move |_| {
        key.track();
        if skip.get_value() {
            // The known value is current: the first change of the inputs waits as any other.
            skip.set_value(false);
            first.set_value(false);
            return;
        }
        if let Some(h) = handle.get_value() {
            h.clear();
        }
        let wait = if first.get_value() {
            Duration::ZERO
        } else {
            rest
        };
        first.set_value(false);
        if let Some(r) = &remote {
            let sent_for = key.get_untracked();
            let here = r.clone();
            let done = move |answer: Option<String>| {
                // Only for the inputs on screen now: a late answer to older inputs never lands.
                if key.try_get_untracked().as_ref() != Some(&sent_for) {
                    return;
                }
                match answer.and_then(|a| (here.read)(&a)) {
                    Some(v) => {
                        result.try_set(Some((sent_for, v)));
                    }
                    // The worker failed on it: computed here, as without a worker.
                    None => {
                        result.try_set(Some((sent_for, compute())));
                    }
                }
            };
            if crate::worker::submit(&r.slot, &r.what, &(r.request)(), done) {
                return;
            }
        }
        let run = move || {
            // The component may have been unmounted since (its inputs disposed): then nothing.
            let Some(k) = key.try_get_untracked() else {
                return;
            };
            let v = compute();
            result.try_set(Some((k, v)));
        };
        handle.set_value(set_timeout_with_handle(run, wait).ok());
    });
    // A computation still waiting would read inputs that are gone once the component is.
    on_cleanup(move || {
        if let Some(h) = handle.try_get_value().flatten() {
            h.clear();
        }
    });
    Deferred { result, key }
}
