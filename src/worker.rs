//! The compute worker: everything that can take longer than a frame runs off the page's thread.
//!
//! The worker (`public/worker.js`, its address in `<html data-worker>`, written by
//! `tools/postbuild.mjs`) holds its own instance of this very WebAssembly module: the page hands it
//! the module it compiled ([`wasm_bindgen::module`]), so nothing is downloaded or compiled twice.
//! The page sends requests written by [`amp_plots::job::Job::request`]; the worker answers each
//! with [`answer`], the same code the CLI runs, and the page reads the answer back bit for bit.
//!
//! Each request has a slot (what it is for: a page's refined numbers, one figure). A newer
//! request in a slot supersedes the older one twice over: the worker drops a request that a newer
//! one in its slot has replaced before it started, and the page drops the answer to any request
//! that is not its slot's newest. So the page never shows a result for settings it no longer has.
//!
//! Where there is no worker (the browser tests' page has no `data-worker`; a browser that refuses
//! module workers; a worker whose script failed to load), [`submit`] says so and the caller
//! computes on the page as before.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker's side: compute what a request asks for ([`amp_plots::job::answer`]). Called by
/// `public/worker.js` inside the worker; never on the page.
#[wasm_bindgen]
pub fn answer(request: &str) -> String {
    // The spans of work inside (the accountant, the shuffle bounds) become the worker's
    // performance measures, which `public/worker.js` sends to the page with the answer.
    amp_plots::probe::install(crate::browser::probe_edge);
    amp_plots::job::answer(request)
}

/// One computation under way in the worker, for the progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    /// The request's number.
    pub id: u64,
    /// Whether it is a figure (counted, not named, when there are several).
    pub figure: bool,
    /// What is being computed, in words ("the refined numbers", "the figure “…”").
    pub what: String,
}

/// What the worker is computing now, for [`WorkerProgress`] (provided by the app).
#[derive(Clone, Copy)]
pub struct Progress(pub RwSignal<Vec<Busy>>);

type Done = Box<dyn FnOnce(Option<String>)>;

struct Waiting {
    slot: String,
    id: u64,
    done: Done,
}

#[derive(Default)]
struct Client {
    /// `None` until the first request; `Some(None)` once there is no worker to be had.
    worker: Option<Option<web_sys::Worker>>,
    next: u64,
    waiting: Vec<Waiting>,
    progress: Option<RwSignal<Vec<Busy>>>,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
}

/// Where the progress line reads what is under way (called once by the app).
pub fn provide_progress() -> Progress {
    let busy = RwSignal::new(Vec::new());
    CLIENT.with_borrow_mut(|c| c.progress = Some(busy));
    Progress(busy)
}

/// The worker script's address, from the document (`<html data-worker>`), if the build has one.
fn worker_url() -> Option<String> {
    web_sys::window()?
        .document()?
        .document_element()?
        .get_attribute("data-worker")
        .filter(|u| !u.is_empty())
}

/// The worker `public/boot.js` started while the WebAssembly downloaded (`window.__ampWorker`,
/// on a view that uses one), taken over once.
fn early_worker() -> Option<web_sys::Worker> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("__ampWorker");
    let w = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    // One whose script failed to load is no use: a fresh one reports its own failure.
    let failed = js_sys::Reflect::get(&w, &"failed".into()).is_ok_and(|f| f.is_truthy());
    if failed {
        return None;
    }
    w.dyn_into::<web_sys::Worker>().ok()
}

/// Start the worker (or take over the one started early) and hand it this module; `None` where
/// that is refused.
fn spawn() -> Option<web_sys::Worker> {
    let worker = match early_worker() {
        Some(w) => w,
        None => {
            let url = worker_url()?;
            let options = web_sys::WorkerOptions::new();
            options.set_type(web_sys::WorkerType::Module);
            web_sys::Worker::new_with_options(&url, &options).ok()?
        }
    };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // The script failed to load or start: no worker from now on; what waits is computed here.
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|_| give_up());
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    let first = js_sys::Object::new();
    js_sys::Reflect::set(&first, &"module".into(), &wasm_bindgen::module()).ok()?;
    worker.post_message(&first).ok()?;
    Some(worker)
}

/// Whether there is a compute worker (started here if it was not yet).
pub fn available() -> bool {
    CLIENT.with_borrow_mut(|c| {
        if c.worker.is_none() {
            c.worker = Some(spawn());
        }
        matches!(c.worker, Some(Some(_)))
    })
}

/// Send `request` for `slot` to the worker; `done` gets the answer, or `None` if the worker
/// failed on it (the caller then computes it on the page). A newer request for the same slot
/// supersedes this one: `done` is then dropped uncalled. `what` names the work for the progress
/// line. Returns `false`, calling nothing, when there is no worker: the caller computes on the
/// page.
pub fn submit(
    slot: &str,
    what: &str,
    request: &str,
    done: impl FnOnce(Option<String>) + 'static,
) -> bool {
    let sent = CLIENT.with_borrow_mut(|c| {
        if c.worker.is_none() {
            c.worker = Some(spawn());
        }
        let worker = c.worker.clone().flatten()?;
        c.next += 1;
        let id = c.next;
        let msg = js_sys::Object::new();
        for (k, v) in [
            ("id", JsValue::from_f64(id as f64)),
            ("slot", JsValue::from_str(slot)),
            ("job", JsValue::from_str(request)),
        ] {
            js_sys::Reflect::set(&msg, &k.into(), &v).ok()?;
        }
        worker.post_message(&msg).ok()?;
        // The older request of this slot, if any, will never land.
        let old: Vec<u64> = c
            .waiting
            .iter()
            .filter(|w| w.slot == slot)
            .map(|w| w.id)
            .collect();
        c.waiting.retain(|w| w.slot != slot);
        c.waiting.push(Waiting {
            slot: slot.to_string(),
            id,
            done: Box::new(done),
        });
        let progress = c.progress;
        Some((id, old, progress))
    });
    let Some((id, old, progress)) = sent else {
        return false;
    };
    if let Some(p) = progress {
        p.try_update(|busy| {
            busy.retain(|b| !old.contains(&b.id));
            busy.push(Busy {
                id,
                figure: slot.starts_with("figure:"),
                what: what.to_string(),
            });
        });
    }
    true
}

/// An answer from the worker: `{id, slot, text, measures}`, `text` null when the computation
/// failed, `measures` the worker's performance measures for it (`[name, ms]` pairs), entered on
/// the page's timeline.
fn on_message(ev: web_sys::MessageEvent) {
    let data = ev.data();
    let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).ok();
    if let Some(list) = get("measures").and_then(|m| m.dyn_into::<js_sys::Array>().ok()) {
        for m in list.iter() {
            let pair = js_sys::Array::from(&m);
            if let (Some(name), Some(ms)) = (pair.get(0).as_string(), pair.get(1).as_f64()) {
                crate::browser::measure_ended(&name, ms);
            }
        }
    }
    if get("fatal").is_some_and(|v| v.is_truthy()) {
        give_up();
        return;
    }
    let Some(id) = get("id").and_then(|v| v.as_f64()).map(|x| x as u64) else {
        return;
    };
    let text = get("text").and_then(|v| v.as_string());
    let failed = text.is_none();
    let (done, progress) = CLIENT.with_borrow_mut(|c| {
        let done = c
            .waiting
            .iter()
            .position(|w| w.id == id)
            .map(|i| c.waiting.remove(i).done);
        if failed {
            // A trap leaves the worker's instance in no state to go on: a fresh one for the rest.
            if let Some(Some(w)) = c.worker.take() {
                w.terminate();
            }
            let rest = std::mem::take(&mut c.waiting);
            (
                done.into_iter()
                    .chain(rest.into_iter().map(|w| w.done))
                    .collect(),
                c.progress,
            )
        } else {
            (done.into_iter().collect::<Vec<Done>>(), c.progress)
        }
    });
    if let Some(p) = progress {
        p.try_update(|busy| {
            if failed {
                busy.clear();
            } else {
                busy.retain(|b| b.id != id);
            }
        });
    }
    // Called outside the borrow: a callback may submit again.
    if failed {
        for d in done {
            d(None);
        }
    } else if let Some(d) = done.into_iter().next() {
        d(text);
    }
}

/// The worker could not be started: everything waiting is computed on the page instead.
fn give_up() {
    let (waiting, progress) = CLIENT.with_borrow_mut(|c| {
        c.worker = Some(None);
        (std::mem::take(&mut c.waiting), c.progress)
    });
    if let Some(p) = progress {
        p.try_set(Vec::new());
    }
    for w in waiting {
        (w.done)(None);
    }
}

/// While the worker computes something, after a second, a line saying what (a computation that
/// short needs no comment; the readouts and figures already say "refining" and "computing").
/// Fixed at the bottom of the window, so that it moves nothing when it appears.
#[component]
pub fn WorkerProgress() -> impl IntoView {
    let Progress(busy) = expect_context::<Progress>();
    let text = move || busy.with(|b| format!("Computing in the background: {}…", summary(b)));
    view! {
        <Show when=move || busy.with(|b| !b.is_empty())>
            <p class="worker-progress" role="status" data-testid="worker-progress">{text}</p>
        </Show>
    }
}

/// What is under way, in a few words: the numbers by name, one figure by its title, several
/// figures counted ("the refined numbers and 4 figures"), so that the line stays short on a phone.
fn summary(busy: &[Busy]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for b in busy.iter().filter(|b| !b.figure) {
        if !parts.contains(&b.what) {
            parts.push(b.what.clone());
        }
    }
    let figures: Vec<&Busy> = busy.iter().filter(|b| b.figure).collect();
    match figures.as_slice() {
        [] => {}
        [one] => parts.push(one.what.clone()),
        many => parts.push(format!("{} figures", many.len())),
    }
    parts.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy(id: u64, figure: bool, what: &str) -> Busy {
        Busy {
            id,
            figure,
            what: what.into(),
        }
    }

    #[test]
    fn the_progress_line_names_the_numbers_and_counts_the_figures() {
        let numbers = busy(1, false, "the refined numbers");
        let a = busy(2, true, "the figure “A”");
        let b = busy(3, true, "the figure “B”");
        assert_eq!(
            summary(std::slice::from_ref(&numbers)),
            "the refined numbers"
        );
        assert_eq!(
            summary(&[numbers.clone(), a.clone()]),
            "the refined numbers and the figure “A”"
        );
        assert_eq!(
            summary(&[numbers.clone(), a, b, numbers]),
            "the refined numbers and 2 figures"
        );
    }
}
