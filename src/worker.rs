//! The compute worker: everything that can take longer than a frame runs off the page's thread.
//!
//! The worker (`public/worker.js`, its address in `<html data-worker>`, written by
//! `tools/postbuild.mjs`) runs the compute module (`compute/`, the app's second WebAssembly
//! module): the page's own module leaves out the heavy computations (`amp_site::heavy`), so that
//! it arrives sooner, and the worker fetches the compute module once the page is live. The page
//! sends requests written by [`amp_site::job::Job::request`]; the worker answers each with
//! `amp_site::job::answer`, the same code the CLI runs, and the page reads the answer back bit
//! for bit.
//!
//! Each request has a slot (what it is for: a page's refined numbers, one figure). A newer
//! request in a slot supersedes the older one twice over: the worker drops a request that a newer
//! one in its slot has replaced before it started, and the page drops the answer to any request
//! that is not its slot's newest. So the page never shows a result for settings it no longer has.
//!
//! Where there is no worker (a browser that refuses module workers; a worker whose script failed
//! to load), the page runs the compute module itself, through the same messages
//! (`window.__ampLocal` in `public/boot.js`: `public/worker.js`'s queue on the page's thread).
//! Where there is neither (the browser tests' page has no `data-worker`; their build links the
//! heavy computations into the page's module, the `compute` feature), [`submit`] says so and the
//! caller computes on the page.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// What answers the page's requests: a `Worker`, or its stand-in on the page
    /// (`window.__ampLocal`), which has the same methods; called by name, so either will do.
    type Port;
    #[wasm_bindgen(method, structural, catch, js_name = postMessage)]
    fn post_message(this: &Port, message: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, structural)]
    fn terminate(this: &Port);
    #[wasm_bindgen(method, structural, setter)]
    fn set_onmessage(this: &Port, handler: &js_sys::Function);
    #[wasm_bindgen(method, structural, setter)]
    fn set_onerror(this: &Port, handler: &js_sys::Function);
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
    /// The message sent, kept to send it again to the stand-in if the worker cannot start.
    message: JsValue,
    done: Done,
}

/// Where the page's requests go.
struct Current {
    port: Port,
    /// Whether it is the stand-in on the page (nothing to fall back on after it).
    local: bool,
}

#[derive(Default)]
struct Client {
    /// `None` until the first request; `Some(None)` once there is nothing to be had.
    worker: Option<Option<Current>>,
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

/// The worker script's address, from the document (`<html data-worker>`), if the build has one:
/// resolved against the address the document was loaded from, not the current one.
fn worker_url() -> Option<String> {
    crate::browser::document_address("data-worker")
}

/// Start the worker and listen to it; `None` where that is refused.
fn spawn_worker(url: &str) -> Option<Port> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(url, &options).ok()?;
    Some(listen(worker.unchecked_into()))
}

/// The compute module on the page's own thread (`window.__ampLocal`, defined by `public/boot.js`),
/// where no worker can be had.
fn spawn_local(url: &str) -> Option<Port> {
    let window = web_sys::window()?;
    let make: js_sys::Function = js_sys::Reflect::get(&window, &"__ampLocal".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let port = make.call1(&JsValue::NULL, &url.into()).ok()?;
    Some(listen(port.unchecked_into()))
}

fn listen(port: Port) -> Port {
    let on_message = Closure::<dyn FnMut(JsValue)>::new(on_message);
    port.set_onmessage(on_message.as_ref().unchecked_ref());
    on_message.forget();
    // The script failed to load or start: the stand-in on the page from now on.
    let on_error = Closure::<dyn FnMut(JsValue)>::new(|_| give_up());
    port.set_onerror(on_error.as_ref().unchecked_ref());
    on_error.forget();
    port
}

/// The worker, or the stand-in where none can be started; `None` where the build has neither.
fn spawn() -> Option<Current> {
    let url = worker_url()?;
    if let Some(port) = spawn_worker(&url) {
        return Some(Current { port, local: false });
    }
    spawn_local(&url).map(|port| Current { port, local: true })
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

/// Start the worker once the page is live: at once on a view that computes in it (`<html
/// data-compute="worker">`), so that the compute module downloads while the reader reads, not
/// during the page's own download, and is there for the first change of a setting; on any other
/// page a moment later (with the pages' prose, `crate::prose`), so that in-app navigation to a
/// page that needs it works offline after the first load, without competing with the page's own
/// start. An embed that does not need it never fetches it. `<html data-compute-state="ready">`
/// once the worker has its instance of the module.
pub fn start_soon() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    let attr = |name: &str| root.as_ref().and_then(|e| e.get_attribute(name));
    let wait = if attr("data-compute").is_some_and(|c| c == "worker") {
        std::time::Duration::ZERO
    } else if attr("data-view").is_some_and(|v| !v.starts_with("embed/")) {
        std::time::Duration::from_millis(crate::prose::FETCH_AFTER_MS)
    } else {
        return;
    };
    leptos::leptos_dom::helpers::set_timeout(
        || {
            available();
        },
        wait,
    );
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
        c.worker.as_ref()?.as_ref()?;
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
        let message: JsValue = msg.into();
        c.worker
            .as_ref()?
            .as_ref()?
            .port
            .post_message(&message)
            .ok()?;
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
            message,
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
fn on_message(ev: JsValue) {
    // Read by name: the stand-in on the page hands a plain object, not a `MessageEvent`.
    let Ok(data) = js_sys::Reflect::get(&ev, &"data".into()) else {
        return;
    };
    let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).ok();
    if let Some(list) = get("measures").and_then(|m| m.dyn_into::<js_sys::Array>().ok()) {
        for m in list.iter() {
            let pair = js_sys::Array::from(&m);
            if let (Some(name), Some(ms)) = (pair.get(0).as_string(), pair.get(1).as_f64()) {
                crate::browser::measure_ended(&name, ms);
            }
        }
    }
    if get("ready").is_some_and(|v| v.is_truthy()) {
        crate::browser::set_root_attribute("data-compute-state", "ready");
        return;
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
            // A trap leaves the worker's instance in no state to go on: a fresh one for the rest
            // (the stand-in on the page answers nothing more after one).
            if let Some(Some(w)) = c.worker.take() {
                w.port.terminate();
                if w.local {
                    c.worker = Some(None);
                }
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

/// The worker could not be started: what waits goes to the stand-in on the page, which runs the
/// compute module itself; where there is none (or it was the stand-in that failed), the caller
/// computes it on the page.
fn give_up() {
    let resend = CLIENT.with_borrow_mut(|c| {
        let was_local = matches!(&c.worker, Some(Some(w)) if w.local);
        if was_local {
            c.worker = Some(None);
            return None;
        }
        let local = worker_url().and_then(|url| spawn_local(&url))?;
        for w in &c.waiting {
            local.post_message(&w.message).ok()?;
        }
        c.worker = Some(Some(Current {
            port: local,
            local: true,
        }));
        Some(())
    });
    if resend.is_some() {
        return;
    }
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
