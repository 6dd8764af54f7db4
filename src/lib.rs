//! Amplification Explorer: the web app (Leptos, client-side rendered, built by Trunk).
//!
//! `main.rs` only calls [`start`]; everything else lives here so browser tests can mount it.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

pub mod browser;
pub mod canvas;
pub mod components;
pub mod pages;
pub mod prose;
pub mod sim;
pub mod state;
pub mod worker;

use amp_site::pages::{Page, View};
use leptos::prelude::*;

use components::controls::Controls;
use components::figure::FigureView;
use pages::declared::DeclaredPage;
use state::AppState;

/// `localStorage` key of the reader's colour theme choice.
pub const THEME_KEY: &str = "amplification-explorer-theme";

/// How long the controls must be still before the URL is rewritten, in milliseconds.
pub const URL_DEBOUNCE_MS: u64 = 120;

/// Install the panic hook and mount the app on `<body>`, in place of the pre-rendered page.
pub fn start() {
    browser::remember_loaded_address();
    install_panic_hook();
    take_over(|| leptos::mount::mount_to_body(App));
    worker::start_soon();
}

/// Mount the live app (`mount`) and remove the pre-rendered elements (`[data-prerendered]`, see
/// `amp_site::prerender`) in the same task, so the browser never paints both or neither. The
/// pre-rendered pictures of figures that the app computes later (deferred or simulated) are
/// handed over first (`static_picture`), and `<html data-app="live">` says the app has taken over.
pub fn take_over(mount: impl FnOnce()) {
    let doc = web_sys::window().and_then(|w| w.document());
    let stale: Vec<web_sys::Element> = doc
        .as_ref()
        .and_then(|d| d.query_selector_all("[data-prerendered]").ok())
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                .collect()
        })
        .unwrap_or_default();
    mount();
    for el in stale {
        el.remove();
    }
    if let Some(root) = doc.and_then(|d| d.document_element()) {
        let _ = root.class_list().remove_1("stale");
        let _ = root.set_attribute("data-app", "live");
    }
    // For the phone benchmark: when a page without figures became live.
    browser::mark("app-live");
}

/// If a panic happens despite everything (wasm cannot unwind, so the app is dead), replace the
/// page with a message and a link that reloads with default settings.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&wasm_bindgen::JsValue::from_str(&info.to_string()));
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            render_crash(&body);
        }
    }));
}

/// What the panic hook puts in place of the dead app (inside `host`, normally `<body>`): a
/// message, and a link back to the page without its query, i.e. the default settings. Plain HTML,
/// no Leptos: the reactive runtime cannot be trusted after a panic.
pub fn render_crash(host: &web_sys::Element) {
    host.set_inner_html(
        "<main class=\"crashed\" role=\"alert\" data-testid=\"crashed\">\
         <h1>Something went wrong</h1>\
         <p>Amplification Explorer hit an internal error and stopped. \
         Nothing was sent anywhere; the details are in the browser console.</p>\
         <p><a href=\"./\" data-testid=\"crash-reset\">Reset to the default settings</a></p></main>",
    );
}

/// The URL follows the state (debounced), the state follows the browser's back and forward
/// buttons, and a resize redraws; all undone when the app unmounts.
fn follow_url_and_window(state: AppState) {
    // The URL follows the state: one history entry per page, replaced while controls move. The
    // write waits until the controls have been still for a moment (browsers throttle, and warn,
    // after a few hundred history writes in ten seconds, which a slider drag would exceed), and it
    // reads the state when it fires, so it never writes a stale query.
    let pending = StoredValue::new(None::<leptos::leptos_dom::helpers::TimeoutHandle>);
    Effect::new(move |_| {
        state.address(); // track every change
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let write = move || {
            // The app may have been unmounted since (its state disposed): then nothing to write.
            if let Some(url) = untrack(|| state.try_address()) {
                browser::replace_url(&url);
            }
        };
        let handle = leptos::leptos_dom::helpers::set_timeout_with_handle(
            write,
            std::time::Duration::from_millis(URL_DEBOUNCE_MS),
        )
        .ok();
        pending.set_value(handle);
    });
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        state.load_location(&browser::location_path(), &browser::location_search());
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        state.resize.update(|n| *n = n.wrapping_add(1));
    });
    on_cleanup(move || {
        popstate.remove();
        resize.remove();
        // A URL write still waiting would read the state after it is gone.
        if let Some(h) = pending.try_get_value().flatten() {
            h.clear();
        }
    });
}

/// The colour theme: the reader's stored choice, else the system's, followed live.
fn follow_theme(state: AppState) {
    // Colour theme: the reader's stored choice, else the system's, which is followed live.
    state.theme.set(state::ThemeChoice::from_id(
        &browser::stored(THEME_KEY).unwrap_or_default(),
    ));
    if let Some(mq) = browser::media_query("(prefers-color-scheme: dark)") {
        state.system_dark.set(mq.matches());
        let on_change = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |_: web_sys::Event| {
                if let Some(mq) = browser::media_query("(prefers-color-scheme: dark)") {
                    // try_: the listener outlives an unmounted app (the browser tests mount many).
                    state.system_dark.try_set(mq.matches());
                }
            },
        );
        let _ = mq.add_event_listener_with_callback(
            "change",
            wasm_bindgen::JsCast::unchecked_ref(on_change.as_ref()),
        );
        // Lives as long as the page.
        on_change.forget();
    }
    Effect::new(move |_| {
        browser::set_root_attribute("data-theme", if state.dark() { "dark" } else { "light" });
    });
}

/// The whole app: navigation, notices, and the page or embed the URL asks for.
#[component]
pub fn App() -> impl IntoView {
    // Spans of work inside the shared crate (the accountant, the shuffle bounds) become
    // performance measures for the benchmark.
    amp_site::probe::install(amp_site::probe::timeline::edge);
    let state = AppState::from_location(&browser::location_path(), &browser::location_search());
    provide_context(state);
    let runner = sim::SimRunner::new();
    provide_context(runner);
    provide_context(prose::ProseStore::start());
    provide_context(worker::provide_progress());
    // The median simulation runs whenever something on screen needs it (the accuracy page or an
    // embedded simulated figure), for the current population, N, runs and seed.
    Effect::new(move |_| {
        let needed = match state.view.get() {
            View::Page(p) => p == Page::Accuracy,
            View::Embed(spec) => spec.is_simulated(),
        };
        if needed {
            if let Ok(config) = state.values.with(amp_model::accuracy::sim_config) {
                runner.ensure(config);
            }
        }
    });

    follow_url_and_window(state);
    follow_theme(state);
    // The document's title names the page or the embedded figure.
    Effect::new(move |_| {
        browser::set_title(&document_title(state.view.get()));
    });
    // Links to other pages inside prose (`<a href="?page=…" data-page="…">`) navigate in place on
    // a plain click, like the navigation; other clicks are the browser's.
    let on_main_click = move |ev: leptos::ev::MouseEvent| {
        if !browser::plain_click(&ev) {
            return;
        }
        if let Some(page) = browser::clicked_page_link(&ev).and_then(|id| Page::from_id(&id)) {
            ev.prevent_default();
            state.navigate(View::Page(page));
        }
    };

    view! {
        <worker::WorkerProgress />
        {move || match state.view.get() {
            View::Embed(spec) => view! { <EmbedView spec=spec /> }.into_any(),
            View::Page(page) => view! {
                <a class="skip" href="#main">"Skip to content"</a>
                <Nav current=page />
                <main id="main" tabindex="-1" on:click=on_main_click>
                    <Notices />
                    <DeclaredPage page=page />
                </main>
                <footer class="site-footer">
                    <p>"Runs entirely in your browser: no server, no requests, nothing stored."</p>
                </footer>
            }
            .into_any(),
        }}
    }
}

/// The document title for a view: the page's heading, or the embedded figure's title.
pub fn document_title(view: View) -> String {
    match view {
        View::Page(Page::Home) => "Amplification Explorer".to_string(),
        View::Page(p) => format!("{} · Amplification Explorer", p.spec().heading),
        View::Embed(f) => format!("{} · Amplification Explorer", f.title),
    }
}

/// Site navigation: only pages that exist.
#[component]
fn Nav(current: Page) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <header class="site-header">
            <nav aria-label="Pages">
                <ul>
                    {Page::ALL
                        .into_iter()
                        .map(|p| {
                            let label = if p == Page::Home { "Amplification Explorer" } else { p.title() };
                            view! {
                                <li class:brand=p == Page::Home>
                                    <a
                                        href=browser::view_href(View::Page(p))
                                        aria-current=if p == current { Some("page") } else { None }
                                        data-testid=format!("nav-{}", p.id())
                                        on:click=move |ev| {
                                            if browser::plain_click(&ev) {
                                                ev.prevent_default();
                                                state.navigate(View::Page(p));
                                            }
                                        }
                                    >
                                        {label}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                    <li>
                        <button
                            type="button"
                            class="theme-toggle"
                            data-testid="theme-toggle"
                            data-theme-choice=move || state.theme.get().id()
                            aria-label=move || format!(
                                "Colour theme: {} ({} now); activate for the next choice",
                                state.theme.get().id(),
                                if state.dark() { "dark" } else { "light" }
                            )
                            on:click=move |_| {
                                let next = state.theme.get_untracked().next();
                                state.theme.set(next);
                                browser::store(THEME_KEY, next.id());
                            }
                        >
                            {move || match state.theme.get() {
                                state::ThemeChoice::System => "Theme: system",
                                state::ThemeChoice::Light => "Theme: light",
                                state::ThemeChoice::Dark => "Theme: dark",
                            }}
                        </button>
                    </li>
                </ul>
            </nav>
        </header>
    }
}

/// What was wrong with the link, if anything.
#[component]
fn Notices() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.notices.with(|n| !n.is_empty())>
            <div class="notices" role="status" data-testid="notices">
                <p>"Some settings in the link could not be used:"</p>
                <ul>
                    {move || state.notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                </ul>
                <button type="button" on:click=move |_| state.notices.set(Vec::new())>"Dismiss"</button>
            </div>
        </Show>
    }
}

/// `?embed=<figure-id>`: the figure and its own controls, nothing else.
#[component]
fn EmbedView(spec: &'static amp_site::figures::FigureSpec) -> impl IntoView {
    let state = expect_context::<AppState>();
    let full = move || {
        let view = View::Page(amp_site::pages::Page::of(spec.id));
        let q = state
            .values
            .with(|v| amp_site::pages::params_query(view, v));
        format!("{}{q}#fig-{}", browser::view_href(view), spec.id)
    };
    view! {
        <main class="embed" id="main">
            <Notices />
            <FigureView spec=spec embedded=true />
            <Controls names=spec.params />
            <p class="embed-credit">
                <a href=full target="_blank" rel="noopener">"Open in Amplification Explorer"</a>
            </p>
        </main>
    }
}
