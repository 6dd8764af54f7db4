//! The home page's widget: the three techniques, each with a live number from the page's
//! readouts (the page itself is declared in `amp_site::pages`).

use amp_format::{compact_number, display_number};
use amp_site::pages::{home as decl, Page, View};
use leptos::prelude::*;

use crate::browser;
use crate::pages::PageReadings;
use crate::state::AppState;

/// A link to another page of the app: navigates in place on a plain click, and leaves Ctrl-,
/// Cmd-, Shift- and middle-clicks to the browser.
#[component]
pub fn PageLink(page: Page, children: Children) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <a
            href=browser::view_href(View::Page(page))
            on:click=move |ev| {
                if browser::plain_click(&ev) {
                    ev.prevent_default();
                    state.navigate(View::Page(page));
                }
            }
        >
            {children()}
        </a>
    }
}

/// The three ways to amplify privacy, each with a live number (rows and sentences declared in
/// `amp_site::pages::home`, which the pre-rendered page uses too).
#[component]
pub fn Techniques() -> impl IntoView {
    let state = expect_context::<AppState>();
    let PageReadings(readings) = expect_context::<PageReadings>();
    view! {
        <table class="techniques">
            <caption>"Three ways to amplify privacy"</caption>
            <thead>
                <tr>
                    <th scope="col">"Technique"</th>
                    <th scope="col">"What happens"</th>
                    <th scope="col">"A live number"</th>
                </tr>
            </thead>
            <tbody>
                {decl::TECHNIQUES
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let sentence = move || {
                            state.values.with(|v| readings.with(|r| decl::technique_sentence(i, v, r)))
                        };
                        view! {
                            <tr>
                                <th scope="row"><PageLink page=t.page>{t.name}</PageLink></th>
                                <td>{t.what}</td>
                                <td>
                                    {move || match sentence() {
                                        Some((before, spec, v, after)) => view! {
                                            <span>
                                                {before}
                                                <output data-testid=spec.id data-value=compact_number(v)>{display_number(v, spec.digits)}</output>
                                                {after}
                                            </span>
                                        }
                                        .into_any(),
                                        None => view! { <span>"—"</span> }.into_any(),
                                    }}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
