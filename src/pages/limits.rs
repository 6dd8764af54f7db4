//! `page=limits`: when subsampling stops being free (seed 001, Steinke, "Limits of privacy
//! amplification by subsampling"). Poisson sampling, add/remove neighbours, Laplace mechanisms.

use amp_math::limits::{
    epsilon_p, noise_factor, noise_factor_bound, noise_ratio, ratio_floor, regime, Duration, Regime,
};
use amp_plots::figures::{figure, regime_sentence};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

/// A figure of this page by id (all are registered; a missing one renders nothing).
fn fig(id: &'static str) -> impl IntoView {
    figure(id).map(|spec| view! { <FigureView spec=spec /> })
}

const ADD_REMOVE: &str = "add/remove one";

/// The limits page.
#[component]
pub fn LimitsPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let relation = Signal::derive(|| ADD_REMOVE);
    let ep = Signal::derive(move || {
        state
            .values
            .with(|v| epsilon_p(v.real("eps"), v.real("p")).map_err(|e| e.to_string()))
    });
    let ratio = Signal::derive(move || {
        state
            .values
            .with(|v| noise_ratio(v.real("eps"), v.real("p")).map_err(|e| e.to_string()))
    });
    let factor = Signal::derive(move || {
        state
            .values
            .with(|v| noise_factor(v.real("eps"), v.real("p")).map_err(|e| e.to_string()))
    });
    let floor = Signal::derive(move || {
        state
            .values
            .with(|v| ratio_floor(v.real("c")).map_err(|e| e.to_string()))
    });
    let bound = Signal::derive(move || {
        state
            .values
            .with(|v| noise_factor_bound(v.real("c")).map_err(|e| e.to_string()))
    });
    let reg: Memo<Result<Regime, String>> = Memo::new(move |_| {
        state.values.with(|v| {
            regime(
                v.count("dataset"),
                v.count("batch"),
                Duration::Epochs(v.real("epochs")),
                v.real("total-eps"),
            )
            .map_err(|e| e.to_string())
        })
    });
    let field = move |f: fn(&Regime) -> f64| Signal::derive(move || reg.get().map(|r| f(&r)));
    let sentence = move || {
        let (d, b, t) = state
            .values
            .with(|v| (v.count("dataset"), v.count("batch"), v.real("total-eps")));
        match reg.get() {
            Ok(r) => regime_sentence(d, b, t, &r),
            Err(e) => e,
        }
    };

    view! {
        <article class="page page-limits">
            <h1>"When subsampling stops being free"</h1>
            <p class="lede">
                "The subsampling page tells a good story: run the mechanism on a sample at rate p, let it spend a larger ε, and the release keeps its guarantee. "
                "The story says this costs nothing in accuracy. That is only true when ε is small compared with p, and this page lets you find where your own setting sits."
            </p>

            <section class="workbench" aria-label="ε and p">
                <div class="panel">
                    <h2>"ε and the rate"</h2>
                    <Controls names=&["eps", "p"] />
                </div>
                <div class="panel results">
                    <h2>"Noise, compared"</h2>
                    <dl class="readouts">
                        <Readout testid="epsilon-p" label="ε_p the sample may spend" value=ep relation=relation digits=5 />
                        <Readout testid="noise-ratio" label="Noise ratio R = p·ε_p/ε" value=ratio relation=relation />
                        <Readout testid="noise-factor" label="Noise factor 1/R" value=factor relation=relation />
                    </dl>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/limits-mechanisms.html")></section>

            <section class="figures" aria-label="The noise ratio">
                {fig("noise-ratio-vs-epsilon")}
                {fig("taylor-orders")}
            </section>

            <section class="explain" inner_html=include_str!("../content/limits-taylor.html")></section>

            <section class="workbench" aria-label="c">
                <div class="panel">
                    <h2>"The ratio c = ε/p"</h2>
                    <Controls names=&["c"] />
                </div>
                <div class="panel results">
                    <h2>"Floor and bound"</h2>
                    <dl class="readouts">
                        <Readout testid="ratio-floor" label="Floor log(1 + c)/c" value=floor relation=relation />
                        <Readout testid="noise-bound" label="Most extra noise c/log(1 + c)" value=bound relation=relation digits=5 />
                    </dl>
                </div>
            </section>

            <section class="figures" aria-label="Proportional ε">
                {fig("noise-ratio-fixed-c")}
                {fig("noise-bound-vs-c")}
            </section>

            <section class="explain" inner_html=include_str!("../content/limits-mse.html")></section>

            <section class="workbench" aria-label="n">
                <div class="panel">
                    <h2>"Records"</h2>
                    <Controls names=&["n"] />
                </div>
            </section>
            <section class="figures" aria-label="Mean squared error">
                {fig("mse-comparison")}
            </section>

            <section class="explain" inner_html=include_str!("../content/limits-regime.html")></section>

            <section class="workbench" aria-label="Training">
                <div class="panel">
                    <h2>"Your training run"</h2>
                    <Controls names=&["dataset", "batch", "epochs", "total-eps"] />
                </div>
                <div class="panel results">
                    <h2>"Regime calculator"</h2>
                    <dl class="readouts">
                        <Readout testid="regime-p" label="Sampling rate p = B/|x|" value=field(|r| r.p) relation=relation />
                        <Readout testid="regime-steps" label="Steps k" value=field(|r| r.steps as f64) relation=relation digits=6 />
                        <Readout testid="regime-epsilon-per-step" label="Per-step ε = ε*/√k" value=field(|r| r.epsilon_per_step) relation=relation />
                        <Readout testid="c-value" label="c = ε/p" value=field(|r| r.c) relation=relation />
                        <Readout testid="regime-noise-factor" label="Noise factor 1/R" value=field(|r| r.noise_factor) relation=relation />
                        <Readout testid="regime-noise-bound" label="Bound c/log(1 + c)" value=field(|r| r.noise_factor_bound) relation=relation />
                    </dl>
                    <p class="sentence" data-testid="regime-sentence">{sentence}</p>
                </div>
            </section>
            <section class="figures" aria-label="Machine-learning regime">
                {fig("regime-map")}
            </section>
        </article>
    }
}
