//! The home page's widget: the three techniques, each with a live number from the page's
//! readouts (the page itself is declared in `amp_plots::pages`).

use amp_plots::format::{compact_number, display_number};
use amp_plots::pages::{home as decl, Page, Readings, ReadoutSpec, View};
use amp_plots::param as p;
use leptos::prelude::*;

use crate::browser;
use crate::pages::declared::PageReadings;
use crate::state::AppState;

/// A link to another page of the app: navigates in place on a plain click, and leaves Ctrl-,
/// Cmd-, Shift- and middle-clicks to the browser.
#[component]
pub fn PageLink(page: Page, children: Children) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <a
            href=format!("?page={}", page.id())
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

fn number(readings: Memo<Readings>, spec: &'static ReadoutSpec) -> Option<f64> {
    readings.with(|r| {
        r.get(spec)
            .and_then(|x| x.value.clone().ok())
            .filter(|v| v.is_finite())
    })
}

/// The three ways to amplify privacy, each with a live number.
#[component]
pub fn Techniques() -> impl IntoView {
    let state = expect_context::<AppState>();
    let PageReadings(readings) = expect_context::<PageReadings>();
    let value = move |f: fn(&amp_plots::params::ParamValues) -> f64| state.values.with(f);
    let out = move |spec: &'static ReadoutSpec| {
        number(readings, spec).map(|v| {
            view! { <output data-testid=spec.id data-value=compact_number(v)>{display_number(v, spec.digits)}</output> }
        })
    };
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
                <tr>
                    <th scope="row"><PageLink page=Page::Subsampling>"Subsampling"</PageLink></th>
                    <td>"The mechanism sees a random sample; your record is usually not in it, and nobody knows whether it is."</td>
                    <td>
                        {move || match out(&decl::EPSILON_PRIME) {
                            Some(o) => view! {
                                <span>
                                    "ε = " {display_number(value(|v| v.real(p::EPS)), 4)} " on a sample at rate p = "
                                    {display_number(value(|v| v.real(p::P)), 4)} " gives ε′ = " {o} " (add/remove one)"
                                </span>
                            }
                            .into_any(),
                            None => view! { <span>"—"</span> }.into_any(),
                        }}
                    </td>
                </tr>
                <tr>
                    <th scope="row"><PageLink page=Page::Shuffling>"Shuffling"</PageLink></th>
                    <td>"Each user randomizes their own data; a shuffler hides who sent which message."</td>
                    <td>
                        {move || match out(&decl::SHUFFLE_EPSILON) {
                            Some(o) => view! {
                                <span>
                                    {state.values.with(|v| v.count(p::USERS))} " users at local ε₀ = "
                                    {display_number(value(|v| v.real(p::EPS0)), 4)} " are, shuffled, " {o}
                                    "-DP together ("
                                    {readings.with(|r| r.text(&decl::SHUFFLE_BOUND).unwrap_or_default().to_string())}
                                    ", δ = " {display_number(value(|v| v.real(p::DELTA)), 2)} ", replace one)"
                                </span>
                            }
                            .into_any(),
                            None => view! { <span>"—"</span> }.into_any(),
                        }}
                    </td>
                </tr>
                <tr>
                    <th scope="row"><PageLink page=Page::Iteration>"Iteration"</PageLink></th>
                    <td>"In noisy iterative training, the steps after a record is used wash out its influence."</td>
                    <td>
                        {move || match (out(&decl::ITERATION_EPSILON), number(readings, &decl::ITERATION_PLAIN)) {
                            (Some(o), Some(plain)) => view! {
                                <span>
                                    "In " {state.values.with(|v| v.count(p::ITERATIONS))} " noisy steps with σ = "
                                    {display_number(value(|v| v.real(p::SIGMA)), 4)} ", the first record's ε is " {o}
                                    " instead of " {display_number(plain, 3)} " (δ = "
                                    {display_number(value(|v| v.real(p::DELTA)), 2)} ", replace one)"
                                </span>
                            }
                            .into_any(),
                            _ => view! { <span>"—"</span> }.into_any(),
                        }}
                    </td>
                </tr>
            </tbody>
        </table>
    }
}
