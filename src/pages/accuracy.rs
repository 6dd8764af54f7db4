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

mod formulas {
    /// ε_n and δ_n (Theorem 1, turned around).
    pub const AMPLIFIED: &str = r#"<math display="block"><mrow><msub><mi>ε</mi><mi>n</mi></msub><mo>=</mo><mi>log</mi><mo>(</mo><mn>1</mn><mo>+</mo><mfrac><mi>N</mi><mi>n</mi></mfrac><mo>(</mo><msup><mi>e</mi><mi>ε</mi></msup><mo>−</mo><mn>1</mn><mo>)</mo><mo>)</mo><mo separator="true">,</mo><mspace width="2em"></mspace><msub><mi>δ</mi><mi>n</mi></msub><mo>=</mo><mfrac><mi>N</mi><mi>n</mi></mfrac><mi>δ</mi></mrow></math>"#;
    /// The no-gain condition (eq. 5).
    pub const Q: &str = r#"<math display="block"><mrow><mtext>Var</mtext><mo>(</mo><mtext>sample estimate</mtext><mo>)</mo><mo>≤</mo><mi>q</mi><mspace width="0.2em"></mspace><msub><mi>V</mi><mi>N</mi></msub><mo separator="true">,</mo><mspace width="2em"></mspace><mi>q</mi><mo>=</mo><mn>1</mn><mo>−</mo><mfrac><msup><mi>ε</mi><mn>2</mn></msup><msubsup><mi>ε</mi><mi>n</mi><mn>2</mn></msubsup></mfrac></mrow></math>"#;
    /// The mean (eqs. 6–8).
    pub const MEAN: &str = r#"<math display="block"><mrow><msub><mi>V</mi><mi>N</mi></msub><mo>=</mo><mn>2</mn><msup><mrow><mo>(</mo><mfrac><mi>R</mi><mrow><mi>ε</mi><mi>N</mi></mrow></mfrac><mo>)</mo></mrow><mn>2</mn></msup><mo separator="true">,</mo><mspace width="1.5em"></mspace><msub><mi>V</mi><mi>n</mi></msub><mo>=</mo><mo>(</mo><mn>1</mn><mo>−</mo><mfrac><mi>n</mi><mi>N</mi></mfrac><mo>)</mo><mfrac><msubsup><mi>S</mi><mi>N</mi><mn>2</mn></msubsup><mi>n</mi></mfrac><mo>+</mo><mn>2</mn><msup><mrow><mo>(</mo><mfrac><mi>R</mi><mrow><msub><mi>ε</mi><mi>n</mi></msub><mi>n</mi></mrow></mfrac><mo>)</mo></mrow><mn>2</mn></msup><mo separator="true">,</mo><mspace width="1.5em"></mspace><mi>r</mi><mo>=</mo><msup><mrow><mo>(</mo><mfrac><mi>n</mi><mi>N</mi></mfrac><mfrac><msub><mi>ε</mi><mi>n</mi></msub><mi>ε</mi></mfrac><mo>)</mo></mrow><mn>2</mn></msup><mo>≤</mo><mn>1</mn></mrow></math>"#;
    /// The smooth sensitivity of the median (eq. 4).
    pub const SMOOTH: &str = r#"<math display="block"><mrow><msup><mi>Δ</mi><mi>S</mi></msup><mo>=</mo><munder><mi>max</mi><mrow><mi>k</mi><mo>=</mo><mn>0</mn><mo>,</mo><mo>…</mo><mo>,</mo><mi>N</mi></mrow></munder><msup><mi>e</mi><mrow><mo>−</mo><mi>k</mi><mi>β</mi></mrow></msup><munder><mi>max</mi><mrow><mi>t</mi><mo>=</mo><mn>0</mn><mo>,</mo><mo>…</mo><mo>,</mo><mi>k</mi><mo>+</mo><mn>1</mn></mrow></munder><mo>(</mo><msub><mi>y</mi><mrow><mi>m</mi><mo>+</mo><mi>t</mi></mrow></msub><mo>−</mo><msub><mi>y</mi><mrow><mi>m</mi><mo>+</mo><mi>t</mi><mo>−</mo><mi>k</mi><mo>−</mo><mn>1</mn></mrow></msub><mo>)</mo><mo separator="true">,</mo><mspace width="1.5em"></mspace><mi>β</mi><mo>=</mo><mfrac><mi>ε</mi><mrow><mn>2</mn><mi>log</mi><mo>(</mo><mn>2</mn><mo>/</mo><mi>δ</mi><mo>)</mo></mrow></mfrac></mrow></math>"#;
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

            <section class="explain">
                <h2>"The budget a sample may spend"</h2>
                <p>
                    "Drawing n of the N records without replacement amplifies privacy (the paper's Theorem 1, the fixed-size case of the subsampling page). Turned around, the sample may use"
                </p>
                <div class="formula" inner_html=formulas::AMPLIFIED></div>
                <p>
                    "and the release still meets (ε, δ). The gain in ε is large for small samples and for large ε, and it is not linear in the rate (Figure 3 below, the subsampling page's figure drawn at its rate p)."
                </p>
                <p>
                    "Now suppose, optimistically, that the statistic's sensitivity is the same on the sample as on the population. The sample's noise variance is then a fraction ε²/ε_n² of the population's V_N, so the sample can only win if its sampling variance fits in what is left (eq. 5):"
                </p>
                <div class="formula" inner_html=formulas::Q></div>
                <p class="cite">"Hu, Drechsler & Kim, Section 4.1 (seed 002). For ε = 3, q = 0.6 needs a rate below 16.77%; for ε = 0.1 a rate below 61.40%."</p>
            </section>

            <section class="figures" aria-label="Amplified budget">
                {fig("sample-budget")}
                {fig("variance-fraction-q")}
            </section>

            <section class="explain">
                <h2>"The mean: never a gain"</h2>
                <p>
                    "The mean of values in a known range R has global sensitivity R/N on the population and R/n on a sample of n: the sensitivity grows exactly as fast as the sample shrinks. The variances (eqs. 6–7) and the ratio of the noise parts (eq. 8) are"
                </p>
                <div class="formula" inner_html=formulas::MEAN></div>
                <p>
                    "and r is the square of the noise ratio of the limits page, so r ≤ 1 for every ε > 0: the sample mean always needs at least as much noise as the population mean, before its sampling error is even counted."
                </p>
                <p>
                    "The paper's Figure 5 reports sampling rates and ε at which r = 1 would be crossed (for a rate of 0.0001, “ε_n < 1.66×10⁻⁶ would be required”). That does not reproduce: in exact arithmetic r stays below 1, and those points come from rounding when eq. 8 is typed directly in double precision, where e^ε − 1 keeps only a few correct digits at tiny ε. Switch on the naive formula below to watch the artifact appear; computed with expm1 and log1p, r never crosses 1."
                </p>
            </section>

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

            <section class="figures" aria-label="The mean">
                {fig("mean-variance-vs-rate")}
                {fig("mean-noise-ratio")}
            </section>

            <section class="explain">
                <h2>"The median: sometimes a gain"</h2>
                <p>
                    "The median's global sensitivity is the whole range, which makes the Laplace mechanism useless; the paper uses its smooth sensitivity instead (Nissim, Raskhodnikova & Smith), a data-dependent bound that looks at the gaps between the order statistics around the median, discounted with distance:"
                </p>
                <div class="formula" inner_html=formulas::SMOOTH></div>
                <p>
                    "and adds Laplace noise of scale 2Δ"<sup>"S"</sup>"/ε with δ = 1/(2N). On a sample the gaps are wider, so the sensitivity usually grows, but the sample may spend ε_n. Whether the sample wins depends on the data, so the paper simulates: a population of N records, then for each ε and sampling rate, T samples drawn without replacement, each privatized at (ε_n, δ_n), against the privatized population median."
                </p>
                <p class="small">
                    "Order statistics beyond the data take the public range's ends (0 and e"<sup>"9"</sup>" for the log-normal population, 0 and 1 for the others), as in Nissim, Raskhodnikova & Smith; the paper does not say. The smooth sensitivity is computed exactly but in O(L log L) instead of O(N²) (see the source), and the simulation runs in short slices so the page stays responsive."
                </p>
            </section>

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
