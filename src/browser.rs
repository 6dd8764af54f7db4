//! Thin, panic-free wrappers around the browser APIs the app uses. Every call tolerates a missing
//! window or a refused operation: a failure here must never take the page down.

use wasm_bindgen::{JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// `location.search` (with its leading `?`), or "" if unavailable.
pub fn location_search() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The address the document was loaded from, read once, at the first call ([`crate::start`] makes
/// it before anything else): after an in-app navigation `location` holds another view's address
/// while the document, and the addresses it names relative to itself, stay the first one's.
fn loaded_href() -> String {
    static HREF: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HREF.get_or_init(|| {
        window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    })
    .clone()
}

/// Remember the address the document was loaded from (see [`loaded_href`]); called at start-up.
pub fn remember_loaded_address() {
    let _ = loaded_href();
}

/// An address the document names relative to itself in an attribute of `<html>` (`data-worker`,
/// `data-content`), made absolute against the address the document was loaded from, so that it
/// points at the same file after the reader has moved to another view (issue 48: the worker's
/// script was asked for under `/renyi/` after a click from the home page).
pub fn document_address(attribute: &str) -> Option<String> {
    let rel = window()?
        .document()?
        .document_element()?
        .get_attribute(attribute)
        .filter(|u| !u.is_empty())?;
    web_sys::Url::new_with_base(&rel, &loaded_href())
        .ok()
        .map(|u| u.href())
}

/// The app's root as an absolute URL ending in `/`: the pre-rendered document says where it is
/// relative to itself (`<html data-root="../">`); a document without it is the root.
pub fn app_root() -> String {
    static ROOT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let rel = document_address("data-root").unwrap_or_else(|| {
            web_sys::Url::new_with_base("./", &loaded_href())
                .map(|u| u.href())
                .unwrap_or_default()
        });
        web_sys::Url::new(&rel)
            .map(|u| {
                u.set_search("");
                u.set_hash("");
                u.href()
            })
            .unwrap_or_default()
    })
    .clone()
}

/// The current address's path relative to the app's root (`training/`, `embed/rdp-base/`, `""`).
pub fn location_path() -> String {
    let Some(w) = window() else {
        return String::new();
    };
    let path = w.location().pathname().unwrap_or_default();
    let root = web_sys::Url::new(&app_root())
        .map(|u| u.pathname())
        .unwrap_or_default();
    path.strip_prefix(&root).unwrap_or("").to_string()
}

/// The address of a view (absolute, from the app's root), without query.
pub fn view_href(view: amp_site::pages::View) -> String {
    format!("{}{}", app_root(), amp_site::pages::view_path(view))
}

/// Replace the current history entry's address (path and query), if it differs (no new entry
/// per slider pixel).
pub fn replace_url(url: &str) {
    let Some(w) = window() else { return };
    let current = w.location().href().unwrap_or_default();
    let hash = w.location().hash().unwrap_or_default();
    if current == format!("{url}{hash}") {
        return;
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{url}{hash}")));
    }
}

/// Add a history entry for a new address (page navigation).
pub fn push_url(url: &str) {
    if let Some(h) = window().and_then(|w| w.history().ok()) {
        let _ = h.push_state_with_url(&JsValue::NULL, "", Some(url));
    }
}

/// What the pre-rendered page shows of a figure (`amp_site::prerender`), read while it is still
/// in the document (during the app's mount).
pub struct StaticFigure {
    /// The picture: the pre-rendered `<svg>` elements themselves (and a two-panel figure's square
    /// one for phones), moved into the live figure rather than copied as markup, which would have
    /// the browser parse every picture again while the app starts (tens of milliseconds on a
    /// phone for a page of figures).
    pub svg: Vec<web_sys::Element>,
    /// The caption's text.
    pub caption: String,
    /// The markup between the picture and the caption (the legend listed for phones).
    pub after: String,
    /// The notes under the caption, as markup.
    pub notes: String,
    /// The chart itself, in `Chart::carry`'s text, for a figure the app computes in its worker.
    pub chart: Option<String>,
}

/// The pre-rendered picture, caption and legend of a figure, if the page has them.
pub fn static_figure(figure_id: &str) -> Option<StaticFigure> {
    let doc = window()?.document()?;
    let fig = doc
        .query_selector(&format!("[data-prerendered] #fig-{figure_id}"))
        .ok()??;
    let mut svg = vec![fig.query_selector("svg.static-plot").ok()??];
    // A two-panel figure's square picture for phones too (the style shows one of the two).
    if let Some(square) = fig.query_selector("svg.static-square").ok().flatten() {
        svg.push(square);
    }
    let caption = fig
        .query_selector("figcaption")
        .ok()
        .flatten()
        .and_then(|c| c.text_content())
        .unwrap_or_default();
    let after = fig
        .query_selector(".figure-legend.narrow-only")
        .ok()
        .flatten()
        .map(|l| l.outer_html())
        .unwrap_or_default();
    let mut notes = String::new();
    if let Ok(list) = fig.query_selector_all("p.figure-note") {
        for i in 0..list.length() {
            if let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                notes.push_str(&el.outer_html());
            }
        }
    }
    Some(StaticFigure {
        svg,
        caption,
        after,
        notes,
        chart: fig.get_attribute("data-chart"),
    })
}

/// The numbers the pre-rendered page carries (`data-readings` on its article, see
/// `amp_site::pages::PageSpec::adopt`), while it is still in the document.
pub fn static_readings() -> Option<String> {
    window()?
        .document()?
        .query_selector("[data-prerendered] article[data-readings]")
        .ok()??
        .get_attribute("data-readings")
}

/// Whether the pre-rendered page shows a figure's legend as a list under the picture (on a narrow
/// screen), while it is still in the document.
pub fn static_legend_shown(figure_id: &str) -> bool {
    window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!(
                "[data-prerendered] #fig-{figure_id} .figure-legend.narrow-only"
            ))
            .ok()
            .flatten()
        })
        .is_some_and(|l| l.client_height() > 0)
}

/// Scroll to the top of the page (after navigation).
pub fn scroll_to_top() {
    if let Some(w) = window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The device pixel ratio, at least 1.
pub fn device_pixel_ratio() -> f64 {
    window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r >= 1.0)
        .unwrap_or(1.0)
}

/// `f()`, measured as the performance measure `name` (through a start mark `{name}-start`), for
/// the benchmarks.
pub fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    use amp_site::probe::{timeline, Edge};
    timeline::edge(name, Edge::Start);
    let out = f();
    timeline::edge(name, Edge::End);
    out
}

/// `performance.mark(name)` ([`amp_site::probe::timeline::mark`]).
pub fn mark(name: &str) {
    amp_site::probe::timeline::mark(name);
}

/// `performance.measure(name, start_mark)`, then drop the start mark.
pub fn measure(name: &str, start_mark: &str) {
    amp_site::probe::timeline::measure(name, start_mark);
}

/// The `performance` object of the page.
fn performance() -> Option<web_sys::Performance> {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()?
        .dyn_into()
        .ok()
}

/// A measure `name` of `ms` milliseconds ending now: work the compute worker measured, entered
/// on the page's timeline for the benchmarks.
pub fn measure_ended(name: &str, ms: f64) {
    let Some(p) = performance() else {
        return;
    };
    let now = p.now();
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"start".into(), &(now - ms).max(0.0).into());
    let _ = js_sys::Reflect::set(&options, &"end".into(), &now.into());
    if let Ok(f) = js_sys::Reflect::get(&p, &"measure".into()) {
        if let Ok(f) = f.dyn_into::<js_sys::Function>() {
            let _ = f.call2(&p, &name.into(), &options);
        }
    }
}

/// Ask the browser to copy `text` to the clipboard. Returns false when the Clipboard API is
/// missing; a refusal (no permission) is swallowed, never logged as an error.
pub fn copy_text(text: &str) -> bool {
    let Some(w) = window() else { return false };
    let nav: JsValue = w.navigator().into();
    let Ok(clip) = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard")) else {
        return false;
    };
    if clip.is_undefined() || clip.is_null() {
        return false;
    }
    let Ok(f) = js_sys::Reflect::get(&clip, &JsValue::from_str("writeText")) else {
        return false;
    };
    let Ok(f) = f.dyn_into::<js_sys::Function>() else {
        return false;
    };
    match f.call1(&clip, &JsValue::from_str(text)) {
        Ok(p) => {
            if let Ok(p) = p.dyn_into::<js_sys::Promise>() {
                let ignore =
                    wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
                let _ = p.catch(&ignore);
                // Lives as long as the promise may settle; one small closure per click.
                ignore.forget();
            }
            true
        }
        Err(_) => false,
    }
}

/// Offer `href` (a `data:` URL) as a download named `filename`, through a temporary link. False
/// if the browser refused any step.
pub fn download(filename: &str, href: &str) -> bool {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(a) = doc.create_element("a") else {
        return false;
    };
    if a.set_attribute("href", href).is_err() || a.set_attribute("download", filename).is_err() {
        return false;
    }
    let _ = a.set_attribute("hidden", "");
    let Some(body) = doc.body() else { return false };
    if body.append_child(&a).is_err() {
        return false;
    }
    if let Ok(el) = a.clone().dyn_into::<web_sys::HtmlElement>() {
        el.click();
    }
    let _ = body.remove_child(&a);
    true
}

/// A `data:` URL of UTF-8 text with the given media type.
pub fn text_data_url(media_type: &str, text: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(text).into();
    format!("data:{media_type};charset=utf-8,{encoded}")
}

/// `matchMedia(query)`, or None.
pub fn media_query(query: &str) -> Option<web_sys::MediaQueryList> {
    window()?.match_media(query).ok()?
}

/// `localStorage[key]`, or None (storage can be disabled).
pub fn stored(key: &str) -> Option<String> {
    window()?.local_storage().ok()??.get_item(key).ok()?
}

/// Set `localStorage[key]`; ignored if storage is unavailable.
pub fn store(key: &str, value: &str) {
    if let Some(s) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(key, value);
    }
}

/// Set an attribute on `<html>`.
pub fn set_root_attribute(name: &str, value: &str) {
    if let Some(el) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute(name, value);
    }
}

/// Whether a click on a link is a plain one (primary button, no modifier): only then does the app
/// navigate in place; Ctrl-, Cmd-, Shift- and Alt-click, and the middle button, are left to the
/// browser (new tab, new window, download).
pub fn plain_click(ev: &web_sys::MouseEvent) -> bool {
    ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key())
}

/// Set `document.title`.
pub fn set_title(title: &str) {
    if let Some(d) = window().and_then(|w| w.document()) {
        if d.title() != title {
            d.set_title(title);
        }
    }
}

/// The `data-page` of the link a click landed in (in-page prose links to other pages), if any.
pub fn clicked_page_link(ev: &web_sys::MouseEvent) -> Option<String> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    el.closest("a[data-page]").ok()??.get_attribute("data-page")
}
