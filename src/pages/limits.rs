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

/// Formula blocks for this page (MathML Core, static).
mod formulas {
    /// ε_p = log(1 + (e^ε − 1)/p) ≈ ε/p (eq. 3).
    pub const EPS_P: &str = r#"<math display="block"><mrow><msub><mi>ε</mi><mi>p</mi></msub><mo>=</mo><mi>log</mi><mo>(</mo><mn>1</mn><mo>+</mo><mfrac><mrow><msup><mi>e</mi><mi>ε</mi></msup><mo>−</mo><mn>1</mn></mrow><mi>p</mi></mfrac><mo>)</mo><mo>≈</mo><mfrac><mi>ε</mi><mi>p</mi></mfrac></mrow></math>"#;
    /// The MSEs (eqs. 1–2).
    pub const MSE: &str = r#"<math display="block"><mrow><msub><mtext>MSE</mtext><mtext>standard</mtext></msub><mo>=</mo><mfrac><mn>2</mn><mrow><msup><mi>ε</mi><mn>2</mn></msup><msup><mi>n</mi><mn>2</mn></msup></mrow></mfrac><mo separator="true">,</mo><mspace width="2em"></mspace><msub><mtext>MSE</mtext><mtext>subsampled</mtext></msub><mo>≤</mo><mfrac><mn>1</mn><mrow><mi>p</mi><mi>n</mi></mrow></mfrac><mo>+</mo><mfrac><mn>2</mn><mrow><msubsup><mi>ε</mi><mi>p</mi><mn>2</mn></msubsup><msup><mi>p</mi><mn>2</mn></msup><msup><mi>n</mi><mn>2</mn></msup></mrow></mfrac></mrow></math>"#;
    /// The Taylor series (eq. 5).
    pub const TAYLOR: &str = r#"<math display="block"><mrow><msub><mi>ε</mi><mi>p</mi></msub><mo>=</mo><mfrac><mi>ε</mi><mi>p</mi></mfrac><mo>−</mo><mfrac><mrow><mo>(</mo><mn>1</mn><mo>−</mo><mi>p</mi><mo>)</mo><msup><mi>ε</mi><mn>2</mn></msup></mrow><mrow><mn>2</mn><msup><mi>p</mi><mn>2</mn></msup></mrow></mfrac><mo>+</mo><mfrac><mrow><mo>(</mo><mn>2</mn><mo>−</mo><mi>p</mi><mo>)</mo><mo>(</mo><mn>1</mn><mo>−</mo><mi>p</mi><mo>)</mo><msup><mi>ε</mi><mn>3</mn></msup></mrow><mrow><mn>6</mn><msup><mi>p</mi><mn>3</mn></msup></mrow></mfrac><mo>±</mo><mi>O</mi><mo>(</mo><msup><mi>ε</mi><mn>4</mn></msup><mo>)</mo></mrow></math>"#;
    /// The ratio and its bounds (eqs. 6–7).
    pub const RATIO: &str = r#"<math display="block"><mrow><mfrac><mi>p</mi><mrow><mi>p</mi><mo>+</mo><mi>ε</mi></mrow></mfrac><mo>≤</mo><mi>R</mi><mo>=</mo><mfrac><mrow><mi>p</mi><msub><mi>ε</mi><mi>p</mi></msub></mrow><mi>ε</mi></mfrac><mo>≤</mo><mn>1</mn></mrow></math>"#;
    /// The floor for ε ≤ cp (eq. 8).
    pub const FLOOR: &str = r#"<math display="block"><mrow><munder><mi>inf</mi><mrow><mi>ε</mi><mo>≤</mo><mi>c</mi><mi>p</mi></mrow></munder><mi>R</mi><mo>=</mo><mfrac><mrow><mi>log</mi><mo>(</mo><mn>1</mn><mo>+</mo><mi>c</mi><mo>)</mo></mrow><mi>c</mi></mfrac></mrow></math>"#;
}

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

            <section class="explain">
                <h2>"Two Laplace mechanisms"</h2>
                <p>
                    "To release the mean of a [0, 1]-valued query over n records with ε-DP, the standard Laplace mechanism adds noise of scale 1/(εn). "
                    "The subsampled one keeps each record with probability p, rescales the sum of the sample by 1/(pn), and adds noise of scale 1/(ε_p·p·n), where"
                </p>
                <div class="formula" inner_html=formulas::EPS_P></div>
                <p>
                    "is the ε the sample may spend (Theorem 1 of the first post, turned around). If ε_p were exactly ε/p, the two noise scales would be equal and subsampling would be free. "
                    "The ratio of the scales says how close that is:"
                </p>
                <div class="formula" inner_html=formulas::RATIO></div>
                <p class="cite">"Steinke, “Limits of privacy amplification by subsampling”, eqs. 3, 6 and 7 (seed 001)."</p>
            </section>

            <section class="figures" aria-label="The noise ratio">
                {fig("noise-ratio-vs-epsilon")}
                {fig("taylor-orders")}
            </section>

            <section class="explain">
                <p>
                    "The ratio is near 1 only while ε is well below p. The Taylor series of ε_p in ε shows why: the second and third terms carry 1/p² and 1/p³, so once ε/p is not small, the first-order story ε_p ≈ ε/p breaks down."
                </p>
                <div class="formula" inner_html=formulas::TAYLOR></div>
                <h2>"Keeping ε proportional to p"</h2>
                <p>
                    "Suppose ε grows with the rate, ε = c·p. Then the ratio never falls below a floor that depends on c alone, and the subsampled mechanism adds at most c/log(1 + c) times the noise. "
                    "With ε ≤ 2p, for instance, that is at most 1.8205 times."
                </p>
                <div class="formula" inner_html=formulas::FLOOR></div>
            </section>

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

            <section class="explain">
                <h2>"Error, not just noise"</h2>
                <p>
                    "The subsampled mechanism also pays a non-private price: the sample's mean is not the data's mean. Its mean squared error (eq. 2) adds a sampling term to the noise term:"
                </p>
                <div class="formula" inner_html=formulas::MSE></div>
                <p>
                    "The subsampled error is never below the standard one. The figure marks the break-even rate where the two terms of eq. 2 are equal: below it the privacy noise dominates (it grows like 1/p² as p shrinks), above it the sampling error does. "
                    "The post sets the sampling term aside as a statistics question; the figure shows how large it is."
                </p>
            </section>

            <section class="workbench" aria-label="n">
                <div class="panel">
                    <h2>"Records"</h2>
                    <Controls names=&["n"] />
                </div>
            </section>
            <section class="figures" aria-label="Mean squared error">
                {fig("mse-comparison")}
            </section>

            <section class="explain">
                <h2>"Is ε ≤ c·p realistic? The machine-learning regime"</h2>
                <p>
                    "Training takes k steps, each on a batch sampled at rate p = B/|x|. With an overall budget of ½ε*²-zCDP, each step may use a pure ε = ε*/√k (the post's footnote 3). "
                    "Training for pk epochs with ε ≤ c·p would need p ≳ 1/√k, that is about √k epochs, far more than the one to a few that are usual; and batches of a few dozen make p tiny. "
                    "So the usual setting is far from ε ≤ c·p, and the noise factor shows what that costs."
                </p>
            </section>

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
