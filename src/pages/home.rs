//! The home page: what privacy amplification is, and the way to the pages that exist.

use amp_math::subsampling::amplified_epsilon;
use amp_plots::figures::iteration::readouts;
use amp_plots::format::{compact_number, display_number};
use amp_plots::pages::{Page, View};
use leptos::prelude::*;

use crate::state::AppState;

/// The home page.
#[component]
pub fn HomePage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let live = Memo::new(move |_| {
        state.values.with(|v| {
            let (eps, p) = (v.real("eps"), v.real("p"));
            (eps, p, amplified_epsilon(eps, p).ok())
        })
    });
    let iteration = Memo::new(move |_| {
        state.values.with(|v| {
            let r = readouts(v);
            (
                v.count("iterations"),
                v.real("sigma"),
                r.first.ok(),
                r.composition.ok(),
            )
        })
    });
    let shuffle = Memo::new(move |_| {
        state.values.with(|v| {
            (
                v.real("eps0"),
                v.count("users"),
                amp_plots::figures::shuffle::tightest(v)
                    .ok()
                    .and_then(|b| b.epsilon.map(|e| (e, b.bound.name()))),
            )
        })
    });
    let go_shuffling = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        state.navigate(View::Page(Page::Shuffling));
    };
    let go_iteration = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        state.navigate(View::Page(Page::Iteration));
    };
    let go = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        state.navigate(View::Page(Page::Subsampling));
    };
    view! {
        <article class="page page-home">
            <h1>"Privacy amplification, live"</h1>
            <p class="lede">
                "A differentially private mechanism can become more private, at no cost in noise, when it is combined with an innocent-looking random step: "
                "running it on a random sample, shuffling the users' messages before anyone sees them, or hiding it inside a long run of later noisy steps. "
                "This explorer turns the results behind those three effects into figures and numbers you can move with your own parameters."
            </p>
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
                        <th scope="row">
                            <a href="?page=subsampling" on:click=go>"Subsampling"</a>
                        </th>
                        <td>"The mechanism sees a random sample; your record is usually not in it, and nobody knows whether it is."</td>
                        <td>
                            {move || {
                                let (eps, p, out) = live.get();
                                match out {
                                    Some(e) => view! {
                                        <span>
                                            "ε = " {display_number(eps, 4)} " on a sample at rate p = "
                                            {display_number(p, 4)} " gives ε′ = "
                                            <output data-testid="home-epsilon-prime" data-value=compact_number(e)>
                                                {display_number(e, 4)}
                                            </output>
                                            " (add/remove one)"
                                        </span>
                                    }
                                    .into_any(),
                                    None => view! { <span>"—"</span> }.into_any(),
                                }
                            }}
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">
                            <a href="?page=shuffling" on:click=go_shuffling>"Shuffling"</a>
                        </th>
                        <td>"Each user randomizes their own data; a shuffler hides who sent which message."</td>
                        <td>
                            {move || {
                                let (eps0, n, out) = shuffle.get();
                                match out {
                                    Some((e, name)) => view! {
                                        <span>
                                            {n} " users at local ε₀ = " {display_number(eps0, 4)} " are, shuffled, "
                                            <output data-testid="home-shuffle-epsilon" data-value=compact_number(e)>
                                                {display_number(e, 4)}
                                            </output>
                                            "-DP together (" {name} ", δ = " {display_number(state.values.with(|v| v.real("delta")), 2)} ", replace one)"
                                        </span>
                                    }
                                    .into_any(),
                                    None => view! { <span>"—"</span> }.into_any(),
                                }
                            }}
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">
                            <a href="?page=iteration" on:click=go_iteration>"Iteration"</a>
                        </th>
                        <td>"In noisy iterative training, the steps after a record is used wash out its influence."</td>
                        <td>
                            {move || {
                                let (t, sigma, first, plain) = iteration.get();
                                match (first, plain) {
                                    (Some(a), Some(b)) => view! {
                                        <span>
                                            "In " {t} " noisy steps with σ = " {display_number(sigma, 4)}
                                            ", the first record's ε is "
                                            <output data-testid="home-iteration-epsilon" data-value=compact_number(a)>
                                                {display_number(a, 3)}
                                            </output>
                                            " instead of " {display_number(b, 3)} " (δ = " {display_number(state.values.with(|v| v.real("delta")), 2)} ", replace one)"
                                        </span>
                                    }
                                    .into_any(),
                                    _ => view! { <span>"—"</span> }.into_any(),
                                }
                            }}
                        </td>
                    </tr>
                </tbody>
            </table>
            <p>
                "Subsampling is not always free: "
                <a href="?page=limits" on:click=move |ev: leptos::ev::MouseEvent| {
                    ev.prevent_default();
                    state.navigate(View::Page(Page::Limits));
                }>"its limits"</a>
                " show how much extra noise it costs when ε is not small compared with the sampling rate, as in most machine-learning training. "
                "For a training run itself, "
                <a href="?page=training" on:click=move |ev: leptos::ev::MouseEvent| {
                    ev.prevent_default();
                    state.navigate(View::Page(Page::Training));
                }>"the training page"</a>
                " gives the tight ε of DP-SGD between two certified bounds, beside the Rényi DP number, and the noise a target ε needs."
            </p>
            <p>
                "Every number names the neighbouring relation it holds for (adding or removing one record, or replacing one), and every figure can be copied as a link or embedded in another page. "
                "The same numbers and figures come from the command-line tool " <code>"amplify"</code> "."
            </p>
        </article>
    }
}
