//! `page=iteration`: amplification by iteration (seed 004, §3; Feldman, Mironov, Talwar &
//! Thakurta 2018), and the lecture's summary of the three techniques.

use amp_plots::figures::figure;
use amp_plots::figures::iteration::{inapplicable, readouts};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

/// The iteration page.
#[component]
pub fn IterationPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let relation = Signal::derive(|| "replace one");
    let numbers = Memo::new(move |_| {
        state.values.with(|v| {
            let r = readouts(v);
            (r.first, r.middle, r.composition)
        })
    });
    let first = Signal::derive(move || numbers.get().0);
    let middle = Signal::derive(move || numbers.get().1);
    let plain = Signal::derive(move || numbers.get().2);
    let warning = move || state.values.with(inapplicable);

    view! {
        <article class="page page-iteration">
            <h1>"Amplification by iteration"</h1>
            <p class="lede">
                "When a model is trained by noisy steps and only the final model is published, a record used early is followed by many more noisy steps. "
                "Each of them blurs its influence a little further, so early records end up better protected than the privacy of their own step suggests."
            </p>

            <section class="workbench" aria-label="Your noisy SGD run">
                <div class="panel">
                    <h2>"One pass of noisy SGD"</h2>
                    <Controls names=&["iterations", "sigma", "step-size", "smoothness", "delta"] />
                </div>
                <div class="panel results">
                    <h2>"Privacy of the last iterate"</h2>
                    {move || warning().map(|w| view! { <p class="warning" role="note" data-testid="iteration-warning">{w}</p> })}
                    <dl class="readouts">
                        <Readout testid="iteration-epsilon-first" label="ε at δ for the first record (t = 1)" value=first relation=relation digits=4 />
                        <Readout testid="iteration-epsilon-middle" label="ε at δ for the record in the middle (t = ⌈T/2⌉)" value=middle relation=relation digits=4 />
                        <Readout testid="iteration-epsilon-plain" label="ε at δ without amplification (every record; the last one's too)" value=plain relation=relation digits=4 />
                    </dl>
                    <p class="small">"Rényi DP converted to (ε, δ) with the improved conversion (Canonne, Kamath & Steinke 2020); σ is in units of the gradient bound L."</p>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/iteration-intro.html")></section>
            <section class="figures" aria-label="Privacy by position">
                {figure("iteration-privacy-by-position").map(|spec| view! { <FigureView spec=spec /> })}
            </section>
            <section class="explain" inner_html=include_str!("../content/iteration-bound.html")></section>
            <section class="explain" inner_html=include_str!("../content/iteration-summary.html")></section>
        </article>
    }
}
