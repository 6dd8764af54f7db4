//! The accuracy page's widgets (the page itself is declared in `amp_site::pages`): the median
//! simulation's panel, the comparison with the paper, and the live Table 1 (Hu, Drechsler & Kim,
//! "Accuracy gains from privacy amplification through sampling for differential privacy").

use amp_format::short_number;
use amp_math::median_sim::{quantiles, Population, PAPER_EPSILONS};
use amp_model::accuracy::{gain_table, sim_config};
use amp_model::param as p;
use leptos::prelude::*;

use crate::sim::{SimRunner, SimStatus};
use crate::state::AppState;

/// Progress, cancel and run-again for the simulation.
#[component]
pub fn SimPanel() -> impl IntoView {
    let runner = expect_context::<SimRunner>();
    view! {
        <div class="sim-panel" data-testid="sim-panel">
            {move || match runner.status.get() {
                SimStatus::Running { done, total } => view! {
                    <div class="sim-status">
                        <progress max=total.to_string() prop:value={done as f64} aria-label="Simulation progress"></progress>
                        <span data-testid="sim-progress">{format!("{done} of {total} runs")}</span>
                        <button type="button" data-testid="sim-cancel" on:click=move |_| runner.cancel()>"Cancel"</button>
                    </div>
                }
                .into_any(),
                SimStatus::Done => {
                    let runs = runner
                        .result
                        .get()
                        .map(|s| s.progress().total)
                        .unwrap_or(0);
                    view! {
                        <div class="sim-status">
                            <span data-testid="sim-done">{format!("Done: {runs} runs.")}</span>
                        </div>
                    }
                    .into_any()
                }
                SimStatus::Cancelled => view! {
                    <div class="sim-status">
                        <span>"Stopped."</span>
                        <button type="button" data-testid="sim-run" on:click=move |_| runner.restart()>"Run again"</button>
                    </div>
                }
                .into_any(),
                SimStatus::Failed(msg) => view! { <p class="error">{msg}</p> }.into_any(),
                SimStatus::Idle => view! { <span>"Waiting to start."</span> }.into_any(),
            }}
        </div>
    }
}

/// The paper's reported sensitivity ratios next to this run's, at the paper's settings.
#[component]
pub fn Reproduction() -> impl IntoView {
    let runner = expect_context::<SimRunner>();
    let state = expect_context::<AppState>();
    const PAPER: [(f64, f64, f64); 4] = [
        (0.1, 0.1, 1.28),
        (0.1, 0.01, 3.72),
        (1.0, 0.1, 4.24),
        (1.0, 0.01, 23.30),
    ];
    view! {
        <table class="compare" data-testid="reproduction">
            <caption>"Median of the sensitivity ratio (log-normal population)"</caption>
            <thead>
                <tr><th scope="col">"ε, n"</th><th scope="col">"paper"</th><th scope="col">"here"</th></tr>
            </thead>
            <tbody>
                {PAPER
                    .iter()
                    .map(|&(eps, rate, paper)| {
                        let here = move || {
                            let sim = runner.result.get()?;
                            let cfg = sim.config();
                            if cfg.population != Population::LogNormal || !sim.progress().finished() {
                                return None;
                            }
                            let c = sim.cells().iter().find(|c| c.epsilon == eps && c.rate == rate)?;
                            Some((c.n, quantiles(&c.sensitivity_ratio, &[0.5])[0]))
                        };
                        let label = move || {
                            let n = state.values.with(|v| {
                                amp_math::median_sim::sample_size(rate, v.count(p::POPULATION_SIZE) as usize)
                            });
                            format!("ε = {eps}, n = {n}")
                        };
                        view! {
                            <tr>
                                <td>{label}</td>
                                <td>{short_number(paper, 4)}</td>
                                <td
                                    data-testid=format!("repro-{eps}-{rate}")
                                    data-value=move || here().map(|(_, m)| amp_format::compact_number(m)).unwrap_or_default()
                                >
                                    {move || here().map(|(_, m)| short_number(m, 3)).unwrap_or_else(|| "—".into())}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        <p class="small">
            "What reproduces. At ε = 0.1 the medians match the paper closely (seeds 1–6 gave 3.4–4.1 at n = 101 and 1.22–1.36 at n = 1001). At ε = 1 they depend on the population drawn, whose spacing near its median sets the population's sensitivity: seeds 1–6 gave 16.8–23.6 and 2.8–4.2, with the paper's 23.30 and 4.24 at the top of that range (our generator is not R's, so the paper's exact population cannot be redrawn). "
            "Table 1: on the bimodal population sampling wins for every ε up to 3 and not at 5, as in the paper. On the log-normal population it wins for ε ≤ 0.1, as in the paper, and also at ε = 0.5 in every seed we tried, where the paper's Table 1 reports no gain: by 9–19% around rate 0.5 with seeds 1–3, and by up to 38% at rates from 0.3 to 0.9 with the default seed 123."
        </p>
    }
}

/// Table 1 of the paper, filled from the simulations run so far.
#[component]
pub fn TableOne() -> impl IntoView {
    let runner = expect_context::<SimRunner>();
    let state = expect_context::<AppState>();
    let rows = [
        (
            Population::LogNormal,
            "Log-normal(5, 0.5)",
            "gains for ε ≤ 0.1",
        ),
        (
            Population::Bimodal,
            "Bimodal Beta mixture",
            "gains for ε ≤ 3",
        ),
        (Population::Beta, "Beta(2, 10)", "not in the paper's table"),
    ];
    view! {
        <section class="explain">
        <h2>"Table 1, live"</h2>
        <p>
            "For each ε, does some sampling rate give a smaller mean squared error than privatizing the population median? Rows fill in as you simulate each population (with the same N, runs and seed)."
        </p>
        <table class="table-one" data-testid="table-one">
            <thead>
                <tr>
                    <th scope="col">"Population"</th>
                    {PAPER_EPSILONS.iter().map(|e| view! { <th scope="col">{format!("ε = {e}")}</th> }).collect_view()}
                    <th scope="col">"Paper"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(pop, name, paper)| {
                        let table = move || {
                            let base = state.values.with(sim_config).ok()?;
                            runner.cache.with(|c| {
                                c.iter()
                                    .find(|s| {
                                        let k = s.config();
                                        k.population == pop
                                            && k.population_size == base.population_size
                                            && k.runs == base.runs
                                            && k.seed == base.seed
                                    })
                                    .map(|s| gain_table(s))
                            })
                        };
                        view! {
                            <tr data-population=pop.id()>
                                <th scope="row">{name}</th>
                                {move || match table() {
                                    Some(rows) => rows
                                        .into_iter()
                                        .map(|r| {
                                            let text = if r.gain() {
                                                format!("gain (at rate {})", r.best_rate)
                                            } else {
                                                "no gain".to_string()
                                            };
                                            view! {
                                                <td class:gain=r.gain() title=format!(
                                                    "log MSE: population {:.2}, best sample {:.2}",
                                                    r.population_mse.ln(),
                                                    r.best_mse.ln()
                                                )>{text}</td>
                                            }
                                        })
                                        .collect_view()
                                        .into_any(),
                                    None => view! {
                                        <td colspan=PAPER_EPSILONS.len().to_string() class="muted">
                                            "not simulated yet: choose this population above"
                                        </td>
                                    }
                                    .into_any(),
                                }}
                                <td>{paper}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        </section>
    }
}
