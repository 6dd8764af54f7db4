//! `page=training`: tight (ε, δ) accounting of a DP-SGD run with privacy loss distributions, the
//! band the true value lies in, Rényi DP beside it, the noise for a target ε, and a copyable
//! statement (issue 6; seed 001's machine-learning regime).

use amp_math::Relation;
use amp_plots::figures::training::{
    account, cached_band, setting, statement, warnings, Account, FINE, QUICK,
};
use amp_plots::figures::FigureId;
use amp_plots::format::{compact_number, short_number};
use amp_plots::pages::Page;
use amp_plots::param as p;
use amp_plots::params::Value;
use leptos::prelude::*;

use crate::browser;
use crate::components::controls::Controls;
use crate::components::deferred::{deferred, REST};
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

fn fig(id: FigureId) -> impl IntoView {
    view! { <FigureView spec=id.spec() /> }
}

/// [`account`], with performance measures for the benchmark: `pld:quick` / `pld:fine` (the
/// accountant's two composed PLDs alone) and `account:quick` / `account:fine` (everything the
/// readouts show, calibration included).
fn measured(values: &amp_plots::params::ParamValues, fine: bool) -> Result<Account, String> {
    let tag = if fine { "fine" } else { "quick" };
    browser::timed(&format!("account:{tag}"), || {
        if let Ok(t) = setting(values) {
            // The band alone, cached for `account` (its result is read there).
            let _ = browser::timed(&format!("pld:{tag}"), || {
                cached_band(&t, if fine { FINE } else { QUICK })
            });
        }
        account(values, fine)
    })
}

/// The training page.
#[component]
pub fn TrainingPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let relation = Signal::derive(|| Relation::AddRemove);
    // The page's inputs: the refined numbers are recomputed only when one of them changes.
    let inputs = Memo::new(move |_| {
        state.values.with(|v| {
            Page::Training
                .params()
                .iter()
                .map(|p| v.get(p))
                .collect::<Vec<Value>>()
        })
    });
    // Quick numbers follow the controls; refined ones arrive once they rest.
    let quick = Memo::new(move |_| {
        inputs.track();
        state.values.with_untracked(|v| measured(v, false))
    });
    let fine = deferred(inputs, REST, move || {
        state.values.with_untracked(|v| measured(v, true))
    });
    let shown: Memo<Result<Account, String>> =
        Memo::new(move |_| fine.current().unwrap_or_else(|| quick.get()));
    let pick = move |f: fn(&Account) -> Result<f64, String>| {
        Signal::derive(move || shown.with(|a| a.as_ref().map_err(|e| e.clone()).and_then(f)))
    };
    let upper = pick(|a| Ok(a.upper));
    let lower = pick(|a| Ok(a.lower));
    let rdp_eps = pick(|a| a.rdp.as_ref().map(|c| c.epsilon).map_err(|e| e.clone()));
    let rdp_order = pick(|a| a.rdp.as_ref().map(|c| c.order).map_err(|e| e.clone()));
    let gap = pick(|a| {
        let r = a.rdp.as_ref().map_err(|e| e.clone())?;
        if a.upper > 0.0 {
            Ok(r.epsilon / a.upper)
        } else {
            Err("the tight ε is 0".into())
        }
    });
    let sigma = pick(|a| a.calibrated.clone());
    let run = Memo::new(move |_| {
        inputs.track();
        state.values.with_untracked(setting)
    });
    let notes = move || run.get().map(|t| warnings(&t)).unwrap_or_default();
    let steps_text = move || match run.get() {
        Ok(t) => format!(
            "q = B/|x| = {}; k = {} steps ({} epochs).",
            short_number(t.q, 4),
            t.steps,
            short_number(t.epochs(), 4)
        ),
        Err(e) => e,
    };
    let refined = move || !fine.pending();
    let status = move || {
        let h = shown.with(|a| a.as_ref().ok().map(|a| a.step));
        match (h, refined()) {
            (Some(h), true) => format!("Refined: grid step h = {}.", short_number(h, 3)),
            (Some(h), false) => format!(
                "Quick numbers (grid step h = {}); refining on a finer grid…",
                short_number(h, 3)
            ),
            (None, _) => String::new(),
        }
    };
    let text = Memo::new(move |_| {
        let t = run.get().ok()?;
        shown.with(|a| a.as_ref().ok().map(|a| statement(&t, a)))
    });
    let copied = RwSignal::new(false);

    view! {
        <article class="page page-training">
            <h1>"Training with DP-SGD: the tight number"</h1>
            <p class="lede">
                "A private training run is many noisy steps, each on a random batch. "
                "How much privacy the whole run spends depends on how the steps are counted: Rényi DP is quick and safe but loose, "
                "while the privacy loss distribution gives the number itself, between two certified bounds. "
                "Enter your run to get both, the noise a target needs, and a statement you can copy."
            </p>

            <section class="workbench" aria-label="Your training run">
                <div class="panel">
                    <h2>"Your run"</h2>
                    <Controls names=&[p::DATASET.spec, p::BATCH.spec, p::LENGTH.spec, p::EPOCHS.spec, p::STEPS.spec, p::BATCHING.spec] />
                    <p class="small" data-testid="run-shape">{steps_text}</p>
                    <h2>"Noise and target"</h2>
                    <Controls names=&[p::MECH.spec, p::SIGMA.spec, p::SCALE.spec, p::DELTA.spec, p::TARGET_EPS.spec] />
                </div>
                <div class="panel results">
                    <h2>"Privacy of the run"</h2>
                    {move || {
                        notes()
                            .into_iter()
                            .map(|n| view! { <p class="warning" role="note" data-testid="training-warning">{n}</p> })
                            .collect_view()
                    }}
                    <dl class="readouts">
                        <Readout testid="tight-epsilon" label="ε at δ, tight (certified upper bound)" value=upper relation=relation digits=5 />
                        <Readout testid="tight-epsilon-lower" label="ε at δ, lower bound: the true ε is at least this" value=lower relation=relation digits=5 />
                        <Readout testid="rdp-epsilon" label="ε at δ from Rényi DP" value=rdp_eps relation=relation digits=5 />
                        <Readout testid="rdp-order" label="Optimal Rényi order α*" value=rdp_order relation=relation digits=4 />
                        <Readout testid="rdp-gap" label="RDP ε over the tight ε" value=gap relation=relation digits=4 />
                        <Readout testid="calibrated-sigma" label="Noise for the target ε (σ, or b for Laplace)" value=sigma relation=relation digits=5 />
                    </dl>
                    <p
                        class="small"
                        data-testid="accounting-status"
                        data-state=move || if refined() { "final" } else { "refining" }
                        data-step=move || shown.with(|a| a.as_ref().ok().map(|a| compact_number(a.step)).unwrap_or_default())
                        role="status"
                    >
                        {status}
                    </p>
                    <div class="statement">
                        <label for="privacy-statement">"Privacy statement (plain language)"</label>
                        <textarea id="privacy-statement" readonly rows="9" data-testid="privacy-statement" prop:value=move || text.get().unwrap_or_default()></textarea>
                        <button type="button" on:click=move |_| {
                            if let Some(t) = text.get_untracked() {
                                browser::copy_text(&t);
                                copied.set(true);
                            }
                        }>"Copy statement"</button>
                        {move || copied.get().then(|| view! { <span class="small" role="status">" Copied."</span> })}
                    </div>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../../plots/content/training-intro.html")></section>
            <section class="figures" aria-label="Your run">
                {fig(FigureId::EpsilonVsEpochs)}
                {fig(FigureId::PrivacyProfile)}
            </section>
            <section class="explain" inner_html=include_str!("../../plots/content/training-noise.html")></section>
            <section class="figures" aria-label="Noise">
                {fig(FigureId::NoiseForTarget)}
                {fig(FigureId::GaussianNoiseRatio)}
            </section>
            <section class="explain" inner_html=include_str!("../../plots/content/training-sampling.html")></section>
        </article>
    }
}
