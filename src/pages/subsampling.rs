//! `page=subsampling`: amplification by subsampling (seed 000; seed 004 §1; seed 002 §3).

use amp_math::subsampling::{amplify, base_delta, base_epsilon, Amplified};
use amp_math::EpsDelta;
use amp_plots::pages::{sampling, Page};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

/// The subsampling page.
#[component]
pub fn SubsamplingPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let forward: Memo<Result<Amplified, String>> = Memo::new(move |_| {
        state.values.with(|v| {
            let base = EpsDelta::new(v.real("eps"), v.real("delta")).map_err(|e| e.to_string())?;
            amplify(&sampling(v), base).map_err(|e| e.to_string())
        })
    });
    // The inverse reads the same ε and δ as the reader's target for the whole release.
    let inverse: Memo<(Result<f64, String>, Result<f64, String>)> = Memo::new(move |_| {
        state.values.with(|v| {
            let s = sampling(v);
            let eps = s
                .inclusion_probability()
                .and_then(|p| base_epsilon(v.real("eps"), p))
                .map_err(|e| e.to_string());
            let delta = match &eps {
                Ok(e) => base_delta(&s, *e, v.real("delta")).map_err(|e| e.to_string()),
                Err(e) => Err(e.clone()),
            };
            (eps, delta)
        })
    });
    let relation = Signal::derive(move || state.values.with(|v| sampling(v).relation().label()));
    let eps_prime = Signal::derive(move || forward.get().map(|a| a.guarantee.epsilon));
    let delta_prime = Signal::derive(move || forward.get().map(|a| a.guarantee.delta));
    let factor = Signal::derive(move || {
        let eps = state.values.with(|v| v.real("eps"));
        forward.get().map(|a| a.guarantee.epsilon / eps)
    });
    let inclusion = Signal::derive(move || forward.get().map(|a| a.inclusion_probability));
    let base_eps = Signal::derive(move || inverse.get().0);
    let base_del = Signal::derive(move || inverse.get().1);

    view! {
        <article class="page page-subsampling">
            <h1>"Amplification by subsampling"</h1>
            <p class="lede">
                "Run a differentially private mechanism on a random sample of the data instead of on all of it, and every person's guarantee gets stronger. "
                "Two things do the work. Most of the time your record is simply not in the sample, and then the output does not depend on it at all. "
                "And when it is in the sample, whoever sees the output cannot tell: the same output could just as well have come from a sample without you."
            </p>

            <section class="workbench" aria-label="Parameters and results">
                <div class="panel">
                    <h2>"Your parameters"</h2>
                    <Controls names=Page::Subsampling.params() />
                </div>
                <div class="panel results">
                    <h2>"Results"</h2>
                    <dl class="readouts">
                        <Readout testid="epsilon-prime" label="Amplified ε′" value=eps_prime relation=relation />
                        <Readout testid="delta-prime" label="Amplified δ′" value=delta_prime relation=relation />
                        <Readout testid="amplification-factor" label="ε′ / ε" value=factor relation=relation />
                        <Readout testid="inclusion-probability" label="Chance a record is sampled" value=inclusion relation=relation />
                    </dl>
                    <h3>"The other way round"</h3>
                    <p class="small">
                        "Read ε and δ as the target for the whole release: how much may the mechanism on the sample spend?"
                    </p>
                    <dl class="readouts">
                        <Readout testid="base-epsilon" label="Base ε the sample may spend" value=base_eps relation=relation digits=5 />
                        <Readout testid="base-delta" label="Base δ the sample may spend" value=base_del relation=relation />
                    </dl>
                </div>
            </section>

            <section class="figures" aria-label="Figures">
                {Page::Subsampling.figures().map(|f| view! { <FigureView spec=f /> }).collect_view()}
            </section>

            <section class="explain" inner_html=include_str!("../content/subsampling-theorem.html")></section>

            <section class="explain" inner_html=include_str!("../content/subsampling-schemes.html")></section>
        </article>
    }
}
