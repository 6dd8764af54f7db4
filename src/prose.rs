//! The pages' prose, which the wasm does not carry (it is about a fifth of the app's size,
//! gzipped). The page the app opens on has its prose in the pre-rendered document; every page's is
//! in the build's `content-<hash>.json` (named by `<html data-content>`), fetched from the app's
//! own host once the page has started, so that in-app navigation (offline too) shows it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The pre-rendered document's prose sections by name, read as elements (not as markup, which
    /// the browser would then parse again while the app starts): [`take_prerendered`] hands each
    /// one's content to the live page once, and the element that then holds it stays here, read
    /// as markup only if the page is shown again.
    static PRERENDERED: std::cell::RefCell<Vec<(String, web_sys::Element, bool)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The pre-rendered prose section `name`, the first time it is asked for: the live page moves its
/// content into `live`'s element (see [`adopt_into`]).
pub fn take_prerendered(name: &str) -> Option<web_sys::Element> {
    PRERENDERED.with_borrow_mut(|all| {
        let (_, el, taken) = all.iter_mut().find(|(k, _, t)| k == name && !*t)?;
        *taken = true;
        Some(el.clone())
    })
}

/// Move the content of the pre-rendered prose section `from` into `to` (the live page's section
/// `name`), which holds it from now on.
pub fn adopt_into(name: &str, from: &web_sys::Element, to: web_sys::Element) {
    while let Some(child) = from.first_child() {
        let _ = to.append_child(&child);
    }
    PRERENDERED.with_borrow_mut(|all| {
        if let Some(entry) = all.iter_mut().find(|(k, _, _)| k == name) {
            entry.1 = to;
        }
    });
}

/// Prose by the name a page declares it under (`amp_site::pages::Prose`): a list of (name,
/// HTML), searched in order (about 80 entries; a hash map would add kilobytes of wasm).
#[derive(Clone, Copy)]
pub struct ProseStore {
    texts: RwSignal<Vec<(String, String)>>,
    /// Set when the content file could not be read.
    failed: RwSignal<bool>,
}

/// How long after start-up the content file is fetched, in milliseconds: after the first figures,
/// off the page's critical path.
pub const FETCH_AFTER_MS: u64 = 1500;

impl ProseStore {
    /// The prose of the pre-rendered document (its `[data-prose]` sections, read before the app
    /// replaces them), then, a moment later, every page's from the content file.
    pub fn start() -> ProseStore {
        from_document();
        let store = ProseStore {
            texts: RwSignal::new(Vec::new()),
            failed: RwSignal::new(false),
        };
        if let Some(url) = content_url() {
            leptos::leptos_dom::helpers::set_timeout(
                move || leptos::task::spawn_local(store.fetch(url)),
                std::time::Duration::from_millis(FETCH_AFTER_MS),
            );
        }
        store
    }

    /// The HTML of a prose fragment, or a line saying why it is not there yet.
    pub fn html(&self, name: &str) -> String {
        // The document's own prose first (as it was before the content file came).
        let here = PRERENDERED.with_borrow(|all| {
            all.iter()
                .find(|(k, _, _)| k == name)
                .map(|(_, el, _)| el.inner_html())
        });
        if let Some(h) = here {
            // Still tracked, so that a fragment not in the document follows the content file.
            self.texts.track();
            return h;
        }
        if let Some(h) = self
            .texts
            .with(|t| t.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
        {
            return h;
        }
        if self.failed.get() {
            "<p class=\"small\">This explanation could not be loaded; reload the page to read it.</p>".into()
        } else {
            "<p class=\"small\">Loading the explanation…</p>".into()
        }
    }

    async fn fetch(self, url: String) {
        match fetch_text(&url).await.and_then(|t| parse(&t)) {
            Some(all) => {
                // The document's own prose (read first) stays first, so it wins.
                self.texts.try_update(|t| t.extend(all));
                crate::browser::set_root_attribute("data-content-state", "ready");
            }
            None => {
                self.failed.try_set(true);
                crate::browser::set_root_attribute("data-content-state", "failed");
            }
        }
    }
}

/// The pre-rendered document's prose sections, kept as elements ([`PRERENDERED`]).
fn from_document() {
    let mut out = Vec::new();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(list) = doc.query_selector_all("[data-prerendered] [data-prose]") {
        for i in 0..list.length() {
            let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            if let Some(name) = el.get_attribute("data-prose") {
                out.push((name, el, false));
            }
        }
    }
    PRERENDERED.set(out);
}

/// The content file's address, from `<html data-content>` (relative to the document as loaded).
fn content_url() -> Option<String> {
    crate::browser::document_address("data-content")
}

async fn fetch_text(url: &str) -> Option<String> {
    let w = web_sys::window()?;
    let resp = wasm_bindgen_futures::JsFuture::from(w.fetch_with_str(url))
        .await
        .ok()?
        .dyn_into::<web_sys::Response>()
        .ok()?;
    if !resp.ok() {
        return None;
    }
    let text = wasm_bindgen_futures::JsFuture::from(resp.text().ok()?)
        .await
        .ok()?;
    text.as_string()
}

/// `{"name": "<html>", …}` into pairs; None unless every value is a string.
fn parse(text: &str) -> Option<Vec<(String, String)>> {
    let obj: js_sys::Object = js_sys::JSON::parse(text).ok()?.dyn_into().ok()?;
    js_sys::Object::entries(&obj)
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect::<Option<Vec<_>>>()
        .filter(|v| !v.is_empty())
}
