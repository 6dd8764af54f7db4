//! `page=accuracy`: when sampling first makes a release more accurate (seed 002, Hu, Drechsler &
//! Kim). Sampling without replacement, replace-one neighbours.

use amp_math::accuracy::{
    delta_n, epsilon_n, mean_variances, rate_for_variance_fraction, variance_fraction,
};
use amp_math::median_sim::{quantiles, Population, PAPER_EPSILONS};
use amp_plots::figures::accuracy::{gain_table, sim_config};
use amp_plots::figures::figure;
use amp_plots::format::short_number;
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::Readout;
use crate::sim::{SimRunner, SimStatus};
use crate::state::AppState;

fn fig(id: &'static str) -> impl IntoView {
    figure(id).map(|spec| view! { <FigureView spec=spec /> })
}

const REPLACE_ONE: &str = "replace one";

/// The accuracy page.
#[component]
pub fn AccuracyPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let relation = Signal::derive(|| REPLACE_ONE);
    let read = move |f: fn(&amp_plots::params::ParamValues) -> Result<f64, String>| {
        Signal::derive(move || state.values.with(f))
    };
    let eps_n = read(|v| epsilon_n(v.real("eps"), v.real("rate")).map_err(|e| e.to_string()));
    let del_n = read(|v| delta_n(v.real("delta"), v.real("rate")).map_err(|e| e.to_string()));
    let q = read(|v| variance_fraction(v.real("eps"), v.real("rate")).map_err(|e| e.to_string()));
    let rate_q = read(|v| {
        rate_for_variance_fraction(v.real("eps"), v.real("target-q")).map_err(|e| e.to_string())
    });
    let ratio = read(|v| {
        mean_variances(
            v.real("eps"),
            v.real("rate"),
            v.count("N") as f64,
            v.real("range"),
            v.real("pop-variance"),
        )
        .map(|m| m.sample_total() / m.population)
        .map_err(|e| e.to_string())
    });

    view! {
        <article class="page page-accuracy">
            <h1>"When sampling first makes a release more accurate"</h1>
            <p class="lede">
                "A statistical agency that holds a whole population and has to publish with (ε, δ)-differential privacy has an odd option: draw a random sample first, and run the private mechanism on the sample with the larger budget that amplification allows. "
                "Less noise, but now there is sampling error, and the statistic may be more sensitive on fewer records. Hu, Drechsler and Kim ask when the trade comes out ahead."
            </p>

            <section class="workbench" aria-label="Budget and sampling rate">
                <div class="panel">
                    <h2>"Budget and sampling rate"</h2>
                    <Controls names=&["eps", "delta", "rate", "target-q"] />
                </div>
                <div class="panel results">
                    <h2>"What the sample may spend"</h2>
                    <dl class="readouts">
                        <Readout testid="epsilon-n" label="ε_n on the sample" value=eps_n relation=relation digits=5 />
                        <Readout testid="delta-n" label="δ_n on the sample" value=del_n relation=relation />
                        <Readout testid="q-value" label="q = 1 − ε²/ε_n²" value=q relation=relation />
                        <Readout testid="rate-for-q" label="Rate at which q reaches the target" value=rate_q relation=relation />
                    </dl>
                </div>
            </section>

            <section class="explain" inner_html=include_str!("../content/accuracy-budget.html")></section>

            <section class="figures" aria-label="Amplified budget">
                {fig("sample-budget")}
                {fig("variance-fraction-q")}
            </section>

            <section class="explain" inner_html=include_str!("../content/accuracy-mean.html")></section>

            <section class="workbench" aria-label="The mean">
                <div class="panel">
                    <h2>"The population and its values"</h2>
                    <Controls names=&["N", "range", "pop-variance", "naive"] />
                </div>
                <div class="panel results">
                    <h2>"Private mean"</h2>
                    <dl class="readouts">
                        <Readout testid="mean-variance-ratio" label="V_n / V_N at your rate" value=ratio relation=relation />
                    </dl>
                </div>
            </section>

            <section class="figures" aria-label="Figures of the mean">
                {fig("mean-variance-vs-rate")}
                {fig("mean-noise-ratio")}
            </section>

            <section class="explain" inner_html=include_str!("../content/accuracy-median.html")></section>

            <section class="workbench" aria-label="Simulation">
                <div class="panel">
                    <h2>"Simulation"</h2>
                    <Controls names=&["population", "runs", "seed"] />
                    <SimPanel />
                </div>
                <div class="panel results">
                    <h2>"Against the paper"</h2>
                    <Reproduction />
                </div>
            </section>

            <section class="figures" aria-label="The median simulation">
                {fig("population-density")}
                {fig("sensitivity-ratio")}
                {fig("noise-magnitude")}
                {fig("sample-medians")}
                {fig("median-mse-vs-rate")}
            </section>

            <section class="explain">
                <h2>"Table 1, live"</h2>
                <p>
                    "For each ε, does some sampling rate give a smaller mean squared error than privatizing the population median? Rows fill in as you simulate each population (with the same N, runs and seed)."
                </p>
                <TableOne />
            </section>
        </article>
    }
}

/// Progress, cancel and run-again for the simulation.
#[component]
fn SimPanel() -> impl IntoView {
    let runner = expect_context::<SimRunner>();
    view! {
        <div class="sim-panel" data-testid="sim-panel">
            {move || match runner.status.get() {
                SimStatus::Running { done, total } => view! {
                    <div class="sim-status">
                        <progress max=total.to_string() prop:value=done.to_string() aria-label="Simulation progress"></progress>
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
fn Reproduction() -> impl IntoView {
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
                                amp_math::median_sim::sample_size(rate, v.count("N") as usize)
                            });
                            format!("ε = {eps}, n = {n}")
                        };
                        view! {
                            <tr>
                                <td>{label}</td>
                                <td>{short_number(paper, 4)}</td>
                                <td
                                    data-testid=format!("repro-{eps}-{rate}")
                                    data-value=move || here().map(|(_, m)| amp_plots::format::compact_number(m)).unwrap_or_default()
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
            "Table 1: on the bimodal population sampling wins for every ε up to 3 and not at 5, as in the paper. On the log-normal population it wins for ε ≤ 0.1, as in the paper, and also, narrowly, at ε = 0.5 around rate 0.5 in every seed we tried, where the paper's Table 1 reports no gain."
        </p>
    }
}

/// Table 1 of the paper, filled from the simulations run so far.
#[component]
fn TableOne() -> impl IntoView {
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
    }
}
