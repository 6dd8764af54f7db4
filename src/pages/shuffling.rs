//! `page=shuffling`: amplification by shuffling (seed 004, §2): every published bound side by
//! side with its validity, the exact clone reduction against the published method's range, the
//! inverse, shuffling against subsampling, the error of a mean in three models, and the lecture's
//! subsampled randomized response (§1.3).

use amp_math::shuffle::{tightest, Bound};
use amp_math::subsampling::base_epsilon;
use amp_math::Relation;
use amp_plots::figures::shuffle::{local_for_target, table};
use amp_plots::figures::FigureId;
use amp_plots::format::{compact_number, display_number};
use amp_plots::param as p;
use leptos::prelude::*;

use crate::browser;
use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::state::AppState;

fn fig(id: FigureId) -> impl IntoView {
    view! { <FigureView spec=id.spec() /> }
}

/// The shuffling page.
#[component]
pub fn ShufflingPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let replace = Signal::derive(|| Relation::ReplaceOne);
    let add_remove = Signal::derive(|| Relation::AddRemove);
    // Every bound once (the exact clone bound and the published method's range included); the
    // tightest, its name and the clone bound's two ends are read from these rows. Measured as
    // `shuffle:table` and `shuffle:inverse` for the benchmark.
    let rows = Memo::new(move |_| browser::timed("shuffle:table", || state.values.with(table)));
    let best = Memo::new(move |_| {
        rows.with(|r| {
            r.clone().and_then(|rs| {
                tightest(&rs)
                    .cloned()
                    .ok_or_else(|| "no bound applies here".to_string())
            })
        })
    });
    let inverse = Memo::new(move |_| {
        browser::timed("shuffle:inverse", || state.values.with(local_for_target))
    });
    let srr = Memo::new(move |_| {
        state.values.with(|v| {
            amp_math::shuffle::subsampled_rr(v.real(p::EPS), v.real(p::P))
                .map_err(|e| e.to_string())
        })
    });

    let best_eps = Signal::derive(move || {
        best.get()
            .and_then(|b| b.epsilon.ok_or_else(|| "no valid bound".to_string()))
    });
    let best_name = move || {
        best.get()
            .map(|b| format!("by {} ({})", b.bound.name(), b.bound.id()))
            .unwrap_or_default()
    };
    let lower = Signal::derive(move || {
        rows.with(|r| {
            r.clone().and_then(|rs| {
                rs.iter()
                    .find(|x| x.bound == Bound::Fmt21Numerical)
                    .and_then(|x| x.exact_lower)
                    .ok_or_else(|| "no exact clone evaluation here".to_string())
            })
        })
    });
    let published = Memo::new(move |_| {
        rows.get().and_then(|rs| {
            rs.iter()
                .find_map(|r| r.lower.zip(r.upper))
                .ok_or_else(|| "no published range here".to_string())
        })
    });
    let pub_lo = Signal::derive(move || published.get().map(|p| p.0));
    let pub_hi = Signal::derive(move || published.get().map(|p| p.1));
    let local = Signal::derive(move || inverse.get().map(|l| l.0));
    let local_name = move || match inverse.get() {
        Ok((_, b, limit)) => format!(
            "by {} ({}){}",
            b.name(),
            b.id(),
            limit
                .map(|w| format!("; stopped by its validity: {w}"))
                .unwrap_or_default()
        ),
        Err(_) => String::new(),
    };
    let sub_base = Signal::derive(move || {
        state.values.with(|v| {
            base_epsilon(v.real(p::TARGET_EPS), v.real(p::P))
                .map_err(|e| e.to_string())
                .and_then(|e| {
                    if e.is_finite() {
                        Ok(e)
                    } else {
                        Err("any ε works".into())
                    }
                })
        })
    });
    let srr_exact = Signal::derive(move || srr.get().map(|s| s.exact));
    let srr_linear = Signal::derive(move || srr.get().map(|s| s.linear));
    let srr_theorem = Signal::derive(move || srr.get().map(|s| s.theorem));

    let bound_rows = move || {
        match rows.get() {
        Ok(rs) => rs
            .into_iter()
            .map(|r| {
                let id = r.bound.id();
                let shown = match (r.valid, r.epsilon) {
                    (true, Some(e)) if e.is_finite() => {
                        let mut t = display_number(e, 5);
                        if r.no_amplification {
                            t.push_str(" (no amplification: ε₀)");
                        }
                        t
                    }
                    _ => format!("not valid here: {}", r.reason_invalid.unwrap_or("outside its domain")),
                };
                let value = match (r.valid, r.epsilon) {
                    (true, Some(e)) if e.is_finite() => compact_number(e),
                    _ => String::new(),
                };
                let extra = match (r.lower, r.upper) {
                    (Some(lo), Some(hi)) => format!(
                        "published method, its two runs: {} and {}",
                        display_number(lo, 5),
                        display_number(hi, 5)
                    ),
                    _ => String::new(),
                };
                view! {
                    <tr data-testid=format!("bound-{id}") data-value=value data-valid=r.valid.to_string()>
                        <th scope="row">{r.bound.name()}<br /><span class="small">{id}</span></th>
                        <td class:muted=!r.valid>{shown}</td>
                        <td class="small">{extra}</td>
                    </tr>
                }
            })
            .collect_view()
            .into_any(),
        Err(e) => view! { <tr><td colspan="3">{e}</td></tr> }.into_any(),
    }
    };

    view! {
        <article class="page page-shuffling">
            <h1>"Amplification by shuffling"</h1>
            <p class="lede">
                "Each user randomizes their own answer before sending it, so no one, not even the collector, sees a true value. "
                "If a shuffler then strips the order and the senders, each answer hides among everyone else's, and the release as a whole is much more private than any one answer. "
                "Four generations of bounds say how much more; this page puts every one side by side, with where it holds."
            </p>

            <section class="workbench" aria-label="Your shuffle setting">
                <div class="panel">
                    <h2>"Users and their randomizer"</h2>
                    <Controls names=&[p::EPS0.spec, p::USERS.spec, p::DELTA.spec, p::RANDOMIZER.spec, p::K.spec] />
                </div>
                <div class="panel results">
                    <h2>"Central privacy after shuffling"</h2>
                    <dl class="readouts">
                        <Readout testid="shuffle-epsilon" label="Central ε, tightest valid bound" value=best_eps relation=replace digits=5 />
                        <Readout testid="shuffle-epsilon-lower" label="Lower end of the exact clone evaluation (it meets the upper end)" value=lower relation=replace digits=5 />
                        <Readout testid="shuffle-published-lower" label="Published numerical method (10 halvings), optimistic run (not a lower bound)" value=pub_lo relation=replace digits=5 />
                        <Readout testid="shuffle-published-upper" label="Published numerical method, pessimistic run (an upper bound)" value=pub_hi relation=replace digits=5 />
                    </dl>
                    <p class="small" data-testid="shuffle-bound-name">"Tightest: " {best_name}</p>
                    <table class="compare" data-testid="shuffle-table">
                        <caption>"Every bound at your setting"</caption>
                        <thead>
                            <tr><th scope="col">"Bound"</th><th scope="col">"Central ε"</th><th scope="col">"Note"</th></tr>
                        </thead>
                        <tbody>{bound_rows}</tbody>
                    </table>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../../plots/content/shuffling-intro.html")></section>
            <section class="figures" aria-label="Every bound">
                {fig(FigureId::ShuffleEpsilonVsUsers)}
                {fig(FigureId::ShuffleEpsilonVsLocal)}
            </section>
            <section class="explain" inner_html=include_str!("../../plots/content/shuffling-bounds.html")></section>

            <section class="workbench" aria-label="A central target">
                <div class="panel">
                    <h2>"A central target"</h2>
                    <Controls names=&[p::TARGET_EPS.spec, p::P.spec] />
                </div>
                <div class="panel results">
                    <h2>"What it allows"</h2>
                    <dl class="readouts">
                        <Readout testid="local-epsilon-for-target" label="Largest local ε₀ each user may use" value=local relation=replace digits=5 />
                        <Readout testid="subsample-epsilon-for-target" label="Largest ε on a Poisson sample at rate p" value=sub_base relation=add_remove digits=5 />
                    </dl>
                    <p class="small" data-testid="local-bound-name">"Local ε₀ " {local_name}</p>
                </div>
            </section>
            <section class="figures" aria-label="Shuffling against subsampling">
                {fig(FigureId::ShuffleVsSubsample)}
            </section>

            <section class="explain" inner_html=include_str!("../../plots/content/shuffling-error.html")></section>
            <section class="figures" aria-label="Error of a mean">
                {fig(FigureId::ErrorCentralLocalShuffle)}
            </section>

            <section class="explain" inner_html=include_str!("../../plots/content/shuffling-subsampled-rr.html")></section>
            <section class="workbench" aria-label="Subsampled randomized response">
                <div class="panel">
                    <h2>"Randomized response on a sample"</h2>
                    <Controls names=&[p::EPS.spec] />
                    <p class="small">"At the sampling rate p set above."</p>
                </div>
                <div class="panel results">
                    <dl class="readouts">
                        <Readout testid="srr-exact" label="Exact ε of the subsampled mechanism" value=srr_exact relation=replace digits=5 />
                        <Readout testid="srr-linear" label="The heuristic εp" value=srr_linear relation=replace digits=5 />
                        <Readout testid="srr-theorem" label="The subsampling theorem log(1 + p(e^ε − 1))" value=srr_theorem relation=replace digits=5 />
                    </dl>
                </div>
            </section>
            <section class="figures" aria-label="Subsampled randomized response against the rate">
                {fig(FigureId::SubsampledRr)}
            </section>
        </article>
    }
}
