//! `page=renyi`: Rényi DP of subsampled mechanisms, composition and conversion to (ε, δ) (seed
//! 003, Wang's slides; Mironov 2017; Mironov, Talwar & Zhang 2019; Canonne, Kamath & Steinke 2020).

use amp_math::rdp_accounting::{delta_for_epsilon, Conversion};
use amp_plots::figures::figure;
use amp_plots::figures::renyi::{at_order, composition, mechanism, setting, step_curve};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

fn fig(id: &'static str) -> impl IntoView {
    figure(id).map(|spec| view! { <FigureView spec=spec /> })
}

/// The Rényi DP page.
#[component]
pub fn RenyiPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let relation = Signal::derive(move || {
        state.values.with(|v| {
            if v.choice("scheme") == "without-replacement" {
                "replace one"
            } else {
                "add/remove one"
            }
        })
    });
    let base = Signal::derive(move || {
        state
            .values
            .with(|v| mechanism(v).rdp(v.real("alpha")).map_err(|e| e.to_string()))
    });
    let at = Memo::new(move |_| state.values.with(at_order));
    let pick = move |f: fn(&amp_plots::figures::renyi::AtOrder) -> Result<f64, String>| {
        Signal::derive(move || at.get().and_then(|a| f(&a)))
    };
    // The guarantee at α: exact where known, otherwise the upper bound.
    let guarantee = pick(|a| a.exact.clone().or_else(|_| a.upper.clone()));
    let upper = pick(|a| a.upper.clone());
    let lower = pick(|a| a.lower.clone());
    let comp = Memo::new(move |_| state.values.with(composition));
    let eps_improved = Signal::derive(move || comp.get().map(|c| c.improved.epsilon));
    let eps_classic = Signal::derive(move || comp.get().map(|c| c.classic.epsilon));
    let order = Signal::derive(move || comp.get().map(|c| c.improved.order));
    let delta_at = Signal::derive(move || {
        state.values.with(|v| {
            let st = setting(v)?;
            let curve = step_curve(&st)?.times(v.real("steps"));
            delta_for_epsilon(&curve, v.real("target-eps"), Conversion::Improved)
                .map(|c| c.delta)
                .map_err(|e| e.to_string())
        })
    });
    let kind = move || match comp.get() {
        Ok(c) if !c.exact => "The per-step curve is the upper bound: no exact curve is known here.",
        Ok(_) => "The per-step curve is exact.",
        Err(_) => "",
    };

    view! {
        <article class="page page-renyi">
            <h1>"Rényi DP: subsampling and composition"</h1>
            <p class="lede">
                "Rényi differential privacy describes a mechanism by a whole curve instead of one (ε, δ) pair. "
                "Two operations that are awkward with (ε, δ) become simple with the curve: running the mechanism on a random sample, and running it many times. "
                "This page draws the curves from the slides of seed 003 with your own parameters, and converts them back to the (ε, δ) people report."
            </p>

            <section class="workbench" aria-label="The base mechanism">
                <div class="panel">
                    <h2>"Base mechanism"</h2>
                    <Controls names=&["mech", "sigma", "scale", "eps", "k", "alpha"] />
                </div>
                <div class="panel results">
                    <h2>"Its curve at α"</h2>
                    <dl class="readouts">
                        <Readout testid="rdp-base-at-order" label="Base ε(α)" value=base relation=relation digits=5 />
                    </dl>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/renyi-intro.html")></section>
            <section class="figures" aria-label="Base curves">{fig("rdp-base")}</section>

            <section class="workbench" aria-label="Subsampling">
                <div class="panel">
                    <h2>"Sampling"</h2>
                    <Controls names=&["scheme", "q", "n"] />
                </div>
                <div class="panel results">
                    <h2>"The subsampled curve at α"</h2>
                    <dl class="readouts">
                        <Readout testid="rdp-at-order" label="ε(α): exact where known, else the upper bound" value=guarantee relation=relation digits=5 />
                        <Readout testid="rdp-upper-at-order" label="Upper bound" value=upper relation=relation digits=5 />
                        <Readout testid="rdp-lower-at-order" label="Lower bound (whole orders)" value=lower relation=relation digits=5 />
                    </dl>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/renyi-subsampling.html")></section>
            <section class="figures" aria-label="Subsampled curves">{fig("rdp-subsampled")}</section>

            <section class="workbench" aria-label="Composition">
                <div class="panel">
                    <h2>"Composition"</h2>
                    <Controls names=&["steps", "delta", "target-eps"] />
                </div>
                <div class="panel results">
                    <h2>"After k steps"</h2>
                    <dl class="readouts">
                        <Readout testid="composed-epsilon" label="ε at δ, improved conversion" value=eps_improved relation=relation digits=5 />
                        <Readout testid="optimal-order" label="Optimal order α*" value=order relation=relation digits=5 />
                        <Readout testid="composed-epsilon-classic" label="ε at δ, classic conversion" value=eps_classic relation=relation digits=5 />
                        <Readout testid="composed-delta" label="δ at the target ε (improved)" value=delta_at relation=relation />
                    </dl>
                    <p class="small" data-testid="curve-kind">{kind}</p>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/renyi-composition.html")></section>
            <section class="figures" aria-label="Figures of the composition">
                {fig("rdp-composition")}
                {fig("rdp-optimal-order")}
            </section>
        </article>
    }
}
