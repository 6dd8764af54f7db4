//! `page=subsampling`: amplification by subsampling (seed 000; seed 004 §1; seed 002 §3).

use amp_math::subsampling::{amplify, base_delta, base_epsilon, Amplified};
use amp_math::EpsDelta;
use amp_plots::pages::{sampling, Page};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::mathml;
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

            <section class="explain">
                <h2>"The theorem"</h2>
                <p>
                    "Let a mechanism M be (ε, δ)-differentially private when one record is added or removed. "
                    "Keep each record independently with probability p (Poisson sampling) and run M on what is kept. "
                    "The combination is (ε′, δ′)-differentially private, again for adding or removing one record, with"
                </p>
                <div class="formula" inner_html=mathml::POISSON_THEOREM></div>
                <p class="cite">"Steinke, “Privacy amplification by subsampling”, Theorem 1 (seed 000). Balle, Barthe & Gaboardi (2018) show no better bound holds for every such M."</p>
                <p>
                    "For small ε, e" <sup>"ε"</sup> " − 1 ≈ ε and log(1 + x) ≈ x, so ε′ ≈ pε: sampling at rate p divides the privacy loss by 1/p. "
                    "For large ε the gain shrinks to a constant: ε′ ≈ ε − log(1/p). The second figure above shows both regimes between the bounds"
                </p>
                <div class="formula" inner_html=mathml::BOUNDS></div>
                <p>"Turned around, a sample drawn at rate p may spend"</p>
                <div class="formula" inner_html=mathml::INVERSE></div>
                <p>
                    "and the whole release still meets ε′. With a 1% sample and a target of ε′ = 1, the mechanism on the sample may use ε = 5.1523 (Hu, Drechsler & Kim, Section 3)."
                </p>
            </section>

            <section class="explain">
                <h2>"Poisson or fixed size"</h2>
                <p>
                    "Poisson sampling includes each record on its own coin flip, so the sample's size varies. "
                    "Many systems instead take exactly m of the n records. The bound has the same form with p = m/n (Brown, Theorem 1.1; Balle, Barthe & Gaboardi 2018), "
                    "but it holds for a different notion of neighbours: datasets of the same size that differ in one record (replace one), because with a fixed sample size, adding a record changes the chances of everyone else. "
                    "Knowing the size also tells an observer something: if others are known to be in the sample, there is less room for you."
                </p>
                <p>
                    "Drawing m times with replacement gives each record a chance η of being drawn at least once. "
                    "The ε′ bound uses η in place of p, but a record can now be drawn several times, so the two samples can differ in several places and δ′ has to pay for group privacy:"
                </p>
                <div class="formula" inner_html=mathml::WITH_REPLACEMENT></div>
                <p>
                    "where δ" <sub>"k"</sub> "(ε) bounds how far apart the mechanism's outputs can be (at level e" <sup>"ε"</sup> ") on inputs that differ in k places. "
                    "Knowing only that M is (ε, δ)-DP, group privacy gives"
                </p>
                <div class="formula" inner_html=mathml::GROUP_BOUND></div>
                <p>
                    "(our derivation from both directions of group privacy; an upper bound). So even a pure ε-DP mechanism gets δ′ > 0 with replacement, about ½(m/n)" <sup>"2"</sup> "·(e" <sup>"2ε"</sup> " − e" <sup>"ε"</sup> ")/(e" <sup>"2ε"</sup> " + 1) for small samples: pick the with-replacement scheme above and set δ = 0 to see it."
                </p>

                <h2>"Neighbours: add/remove or replace one"</h2>
                <p>
                    "Every number on this page carries a badge naming the neighbouring relation it holds for. "
                    "Numbers under different relations are not comparable: replacing a record is removing one and adding another, so a query that moves by at most 1 when a record is added or removed can move by 2 when one is replaced, and a mechanism calibrated for one relation is not automatically private for the other."
                </p>

                <h2>"When sampling buys nothing"</h2>
                <p>
                    "The amplification rests on the sample staying secret. If an observer learns whether your record was sampled (the list of sampled IDs is published, say), then under pure differential privacy nothing is gained: "
                    "given that you were sampled, the output is M run on data containing you, with the full ε (Steinke, footnote on known inclusion). "
                    "Under approximate or Rényi DP a little amplification survives, but less."
                </p>
            </section>
        </article>
    }
}
